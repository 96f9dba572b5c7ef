/**
 * An index that is being built, or whose build was killed, must never answer with confidence:
 * every answer (a not-found included) is partial and carries the STALE_INDEX warning.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import { binPath, runTool, tempDir } from "../support/run.js";
import type { Envelope } from "./support.js";

const N = 1500;

function tree(): string {
  const root = tempDir("mg-incomplete-");
  for (let d = 0; d < 15; d++) {
    mkdirSync(join(root, `pkg${d}`));
    for (let i = 0; i < N / 15; i++) {
      const k = d * (N / 15) + i;
      writeFileSync(
        join(root, `pkg${d}`, `repo${k}.ts`),
        `export class Repository${k} {\n  find(id: number): number {\n    return id + ${k};\n  }\n}\n\nexport function make${k}(): Repository${k} {\n  return new Repository${k}();\n}\n`,
      );
    }
  }
  return root;
}

function storedFiles(db: string): number {
  try {
    const d = new Database(db, { readonly: true, fileMustExist: true });
    try {
      return (d.prepare("SELECT count(*) FROM files").pluck().get() as number) ?? 0;
    } finally {
      d.close();
    }
  } catch {
    return 0;
  }
}

async function find(root: string, name: string): Promise<{ code: number; env: Envelope }> {
  const r = await runTool("magellan", ["find", "--name", name, "--root", root]);
  return { code: r.code, env: JSON.parse(r.stdout) as Envelope };
}

const incompleteWarning = (env: Envelope): boolean =>
  (env.diagnostics ?? []).some((d) => d.code === "MAGELLAN_E108" && d.level === "warning" && /index is incomplete/.test(d.message));

describe("magellan answers from an incomplete index", () => {
  it("a full index killed half-way: found and not-found answers are partial with the warning; a finished run clears it", async () => {
    const root = tree();
    const db = join(root, ".magellan", "code.db");
    const child = spawn(binPath("magellan"), ["index", "--root", root], { stdio: "ignore" });
    const exited = new Promise((r) => child.once("exit", r));
    let stored = 0;
    const deadline = Date.now() + 60_000;
    while (stored === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 5));
      stored = storedFiles(db);
    }
    child.kill("SIGKILL");
    await exited;
    stored = storedFiles(db);
    assert.ok(stored > 0 && stored < N, `killed with ${stored} of ${N} files stored; the test needs a run killed half-way`);

    // Some name whose file was not stored yet: today's answer was a confident "no symbol named".
    const d = new Database(db, { readonly: true });
    const have = new Set(d.prepare("SELECT name FROM symbols").pluck().all() as string[]);
    d.close();
    let missing = "";
    for (let k = 0; k < N && missing === ""; k++) if (!have.has(`Repository${k}`)) missing = `Repository${k}`;
    assert.notEqual(missing, "");
    const notFound = await find(root, missing);
    assert.equal(notFound.code, 1);
    assert.equal(notFound.env.data.code, "MAGELLAN_E104");
    assert.equal(notFound.env.partial, true, "a not-found from an incomplete index is partial");
    assert.ok(incompleteWarning(notFound.env), JSON.stringify(notFound.env.diagnostics));

    const present = [...have].find((n) => n.startsWith("Repository")) as string;
    const found = await find(root, present);
    assert.equal(found.env.partial, true);
    assert.equal(found.code, 4, "a partial answer exits 4");
    assert.ok(incompleteWarning(found.env));

    const again = await runTool("magellan", ["index", "--root", root]);
    assert.equal(again.code, 0, again.stdout);
    const whole = await find(root, missing);
    assert.equal(whole.code, 0, JSON.stringify(whole.env));
    assert.equal(whole.env.partial, false);
    assert.ok(!incompleteWarning(whole.env));
  });
});

describe("an index deleted while it is built", () => {
  it("the run fails with MAGELLAN_E120 instead of reporting counts that went with the unlinked file (rm -rf .magellan during index)", async () => {
    const { indexTree } = await import("../../src/graph/ingest.js");
    const { rmSync } = await import("node:fs");
    const root = tempDir("mg-removed-");
    for (let i = 0; i < 40; i++) writeFileSync(join(root, `m${i}.py`), `def f${i}():\n    return ${i}\n`);
    const dbPath = join(root, ".magellan", "code.db");
    let removed = false;
    await assert.rejects(
      indexTree({
        root,
        dbPath,
        threads: 1,
        onProgress: () => {
          if (removed) return;
          removed = true;
          rmSync(join(root, ".magellan"), { recursive: true, force: true });
        },
      }),
      (e: { code?: string; message?: string }) => e.code === "MAGELLAN_E120" && /deleted while this run wrote to it/.test(e.message ?? ""),
    );
    assert.ok(removed);
    // The next run starts over and stores everything.
    const r = await indexTree({ root, dbPath, threads: 1 });
    assert.equal(r.files, 40);
  });
});
