import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { REPO_ROOT, tempDir } from "../support/run.js";
import { type Match, copyFixture, mg, spanText } from "./support.js";

describe("magellan on hostile and real input", () => {
  it("syntax errors index what tree-sitter recovered, with a warning; binary, huge and symlinked files are skipped and counted", async () => {
    const root = copyFixture("multi", ["ts"]);
    writeFileSync(join(root, "ts/broken.ts"), "export function fine(): number { return 1; }\nexport function broken( {\n");
    // Valid TSX the grammar marks (a tagged template with type arguments): not a file to fix.
    writeFileSync(join(root, "ts/styled.tsx"), 'import styled from "styled-components";\nexport const Box = styled.div<{ $size: number }>`\n  width: ${(p) => p.$size}px;\n`;\n');
    writeFileSync(join(root, "ts/binary.ts"), Buffer.from([0x65, 0x78, 0x00, 0x01, 0x02]));
    writeFileSync(join(root, "ts/wide.ts"), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("export const wide = 1;\n", "utf16le")]));
    writeFileSync(join(root, "ts/huge.ts"), `export const big = "${"x".repeat(5000)}";\n`);
    symlinkSync("/etc/hostname", join(root, "ts/link.ts"));
    const { r, env } = await mg(root, ["index", "--max-file-size", "4000"]);
    assert.equal(r.code, 0, r.stdout);
    const d = env.data as {
      parse_recovered: string[];
      skipped: { path: string; reason: string }[];
      files_skipped: number;
      files_scanned: number;
      files_indexed: number;
      files_unchanged: number;
    };
    // Every path looked at is indexed, unchanged or skipped (the symlink included).
    assert.equal(d.files_scanned, d.files_indexed + d.files_unchanged + d.files_skipped);
    assert.deepEqual(d.parse_recovered, ["ts/broken.ts"]);
    const reasons = Object.fromEntries(d.skipped.map((s) => [s.path, s.reason]));
    assert.equal(reasons["ts/binary.ts"], "binary");
    assert.equal(reasons["ts/wide.ts"], "binary");
    assert.match((d.skipped as { path: string; detail?: string }[]).find((s) => s.path === "ts/wide.ts")?.detail ?? "", /^UTF-16LE text \(byte order mark\): not indexed, only UTF-8 is/);
    assert.equal(reasons["ts/huge.ts"], "too_large");
    assert.equal(reasons["ts/link.ts"], "symlink");
    assert.equal(d.files_skipped, 4);
    const codes = (env.diagnostics ?? []).map((x) => x.code);
    assert.ok(codes.includes("MAGELLAN_E106") && codes.includes("MAGELLAN_E006") && codes.includes("MAGELLAN_E007"), codes.join());
    const fine = await mg(root, ["find", "--name", "fine"]);
    assert.equal((fine.env.data.matches as Match[]).length, 1);
    // A query about a skipped file says why it is not in the index.
    const huge = await mg(root, ["query", "--file", "ts/huge.ts"]);
    assert.equal(huge.env.data.code, "MAGELLAN_E105");
    assert.match(String(huge.env.data.message), /skipped it \(too_large: \d+ bytes > limit 4000\)/);
  });

  it("CRLF, BOM and multi-byte text keep exact byte spans", async () => {
    const root = tempDir("magellan-");
    writeFileSync(join(root, "a.ts"), Buffer.from("\uFEFF// héllo wörld ✓\r\nexport function größe(): number {\r\n  return 1;\r\n}\r\n", "utf8"));
    writeFileSync(join(root, "b.py"), Buffer.from([...Buffer.from("# caf"), 0xe9, ...Buffer.from(" latin-1\ndef after_bad_byte():\n    return 2\n")]));
    await mg(root, ["index"]);
    const { env } = await mg(root, ["find", "--name", "größe"]);
    const s = (env.data.matches as Match[])[0] as Match;
    assert.equal(spanText(root, s.name_span), "größe");
    assert.equal(s.name_span.start_line, 2);
    assert.equal(s.name_span.start_col, "export function ".length);
    const py = await mg(root, ["find", "--name", "after_bad_byte"]);
    const p = (py.env.data.matches as Match[])[0] as Match;
    assert.equal(spanText(root, p.name_span), "after_bad_byte");
  });

  it("real code from node_modules: commander's sources", async () => {
    const root = tempDir("magellan-real-");
    const lib = join(REPO_ROOT, "node_modules/commander/lib");
    mkdirSync(join(root, "lib"));
    for (const f of readdirSync(lib)) copyFileSync(join(lib, f), join(root, "lib", f));
    copyFileSync(join(REPO_ROOT, "node_modules/commander/index.js"), join(root, "index.js"));
    const idx = await mg(root, ["index"]);
    assert.equal(idx.r.code, 0);
    assert.ok((idx.env.data.symbols as unknown as number) > 100, JSON.stringify(idx.env.data));
    const { env } = await mg(root, ["find", "--name", "Command", "--kind", "class"]);
    const cls = (env.data.matches as Match[])[0] as Match;
    assert.equal(cls.span.file_path, "lib/command.js");
    assert.match(spanText(root, cls.span), /^class Command extends EventEmitter \{/);
    const opt = await mg(root, ["find", "--name", "option", "--path", "lib/command.js"]);
    const m = (opt.env.data.matches as Match[])[0] as Match;
    assert.equal(m.parent, "Command");
    assert.equal(spanText(root, m.name_span), "option");
    // Methods calling `this._optionEx(...)` resolve to the method in the same class.
    const refs = await mg(root, ["refs", "--name", "_optionEx", "--direction", "in"]);
    const calls = (refs.env.data.references as { resolution: string; caller?: string }[]).filter((x) => x.caller === "option");
    assert.ok(calls.length >= 1);
    assert.ok(calls.every((c) => c.resolution === "exact"));
  });
});
