/**
 * A Rust trait method and its implementations are one rename, shaped like bat's `Printer`:
 * `trait Printer { fn print_footer(..) }` with `impl Printer for SimplePrinter` and
 * `impl Printer for InteractivePrinter`, called through `&mut dyn Printer`. The impls' methods
 * name no base class (their parent is `<SimplePrinter as Printer>`), so the override family was
 * empty: renaming the trait's method left both impls with a method the trait does not declare
 * (cargo: E0407, E0046), and bat, whose dependencies cannot be fetched offline, got it unchecked.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { copyFixture } from "./rename-helpers.js";
import { runTool } from "../support/run.js";

const made: string[] = [];
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});
const fixture = (): string => {
  const d = copyFixture("rust-trait");
  made.push(d);
  return d;
};

function cargoCheck(root: string): void {
  const r = spawnSync("cargo", ["check", "--offline", "--quiet"], { cwd: root, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
}

async function idOf(root: string, fqn: string): Promise<string> {
  assert.equal((await runTool("magellan", ["index", "--root", root], { cwd: root })).code, 0);
  const r = await runTool("magellan", ["find", "--name", "print_footer", "--root", root], { cwd: root });
  const matches = (r.json as { data: { matches: { symbol_id: string; display_fqn: string }[] } }).data.matches;
  const m = matches.find((x) => x.display_fqn === fqn);
  assert.ok(m, JSON.stringify(matches));
  return m.symbol_id;
}

const renamed = (root: string): { printer: string; main: string } => ({
  printer: readFileSync(join(root, "src/printer.rs"), "utf8"),
  main: readFileSync(join(root, "src/main.rs"), "utf8"),
});

describe("splice rename: a Rust trait method with its impls", () => {
  it("the trait's method takes both impls' methods and the call through `dyn Printer`; cargo accepts it", async () => {
    const root = fixture();
    const r = await runTool("splice", ["rename", "--file", "src/printer.rs", "--symbol", "Printer::print_footer", "--to", "print_trailer", "--allow-heuristic"], { cwd: root });
    assert.equal(r.code, 0, r.stdout);
    const text = JSON.stringify(r.json);
    assert.match(text, /renamed with the methods of the same name it overrides or that override it: [^"]*<SimplePrinter as Printer>\.print_footer[^"]*<InteractivePrinter as Printer>\.print_footer/, text.slice(0, 3000));
    // Each member's engine said it had no language server (W212, where rust-analyzer is absent): once is enough.
    const w212 = ((r.json as { diagnostics?: { code: string }[] }).diagnostics ?? []).filter((d) => d.code === "SPLICE_W212");
    assert.ok(w212.length <= 1, JSON.stringify(w212));
    const { printer, main } = renamed(root);
    assert.doesNotMatch(printer + main, /print_footer/);
    assert.equal(printer.match(/fn print_trailer\(/g)?.length, 3);
    assert.match(main, /printer\.print_trailer\(&mut out\)/);
    cargoCheck(root);
  });

  it("one impl's method takes the trait's and the other impl's (its sibling)", async () => {
    const root = fixture();
    const id = await idOf(root, "crate::printer::<SimplePrinter as Printer>::print_footer");
    const r = await runTool("splice", ["rename", "--symbol-id", id, "--to", "print_trailer", "--allow-heuristic"], { cwd: root });
    assert.equal(r.code, 0, r.stdout);
    const { printer, main } = renamed(root);
    assert.doesNotMatch(printer + main, /print_footer/);
    assert.equal(printer.match(/fn print_trailer\(/g)?.length, 3);
    cargoCheck(root);
  });

  it("magellan refs lists the impls' methods as implementing the trait's", async () => {
    const root = fixture();
    const id = await idOf(root, "crate::printer::Printer::print_footer");
    const r = await runTool("magellan", ["refs", "--symbol-id", id, "--root", root], { cwd: root });
    assert.equal(r.code, 0, r.stdout);
    const by = (r.json as { data: { overridden_by?: { display_fqn: string }[] } }).data.overridden_by ?? [];
    assert.deepEqual(
      by.map((o) => o.display_fqn),
      ["crate::printer::<SimplePrinter as Printer>::print_footer", "crate::printer::<InteractivePrinter as Printer>::print_footer"],
    );
  });
});
