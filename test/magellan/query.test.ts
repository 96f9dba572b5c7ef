import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { tempDir } from "../support/run.js";
import { type Match, type Ref, codes, copyFixture, indexed, mg, spanText } from "./support.js";

describe("magellan queries on the multi-language fixture", () => {
  let root = "";
  before(async () => {
    root = await indexed("multi");
  });

  it("status reports counts, schema version, last index time and no stale files", async () => {
    const { r, env } = await mg(root, ["status"]);
    assert.equal(r.code, 0);
    assert.equal(env.command, "status");
    const d = env.data as Record<string, unknown>;
    assert.ok((d.files as number) >= 5, JSON.stringify(d));
    assert.ok((d.symbols as number) > 10);
    assert.equal(d.db_schema_version, 6);
    assert.match(String(d.last_index_time), /^\d{4}-\d\d-\d\dT/);
    assert.equal(d.stale_files, 0);
    const langs = d.languages as Record<string, number>;
    for (const l of ["typescript", "tsx", "javascript", "python", "rust", "c", "cpp", "java", "go"]) assert.ok(langs[l] !== undefined && langs[l] > 0, `${l} indexed: ${JSON.stringify(langs)}`);
  });

  it("a .h whose code is C++ is read as C++ (classes, namespaces, templates); a plain C header stays C", async () => {
    const shape = await mg(root, ["find", "--name", "Shape"]);
    const cls = (shape.env.data.matches as (Match & { language: string })[])[0];
    assert.equal(cls?.kind, "Class", shape.r.stdout);
    assert.equal(cls?.language, "cpp");
    assert.equal(cls?.span.file_path, "cpp/shape.h");
    const area = await mg(root, ["find", "--name", "label", "--path", "cpp/shape.h"]);
    assert.equal((area.env.data.matches as Match[])[0]?.parent, "Shape");
    const tpl = await mg(root, ["find", "--name", "doubled"]);
    assert.equal((tpl.env.data.matches as Match[])[0]?.display_fqn, "cpp/shape::geo::doubled");
    const c = await mg(root, ["query", "--file", "c/util.h"]);
    const syms = c.env.data.symbols as (Match & { language: string })[];
    assert.ok(syms.length > 0 && syms.every((s) => s.language === "c"), c.r.stdout);
  });

  it("TS scopes: a bare name is never an object literal's property or a method; self.x is a class member", async () => {
    const props = await mg(root, ["query", "--file", "ts/scopes.ts"]);
    const syms = props.env.data.symbols as Match[];
    const idOf = (name: string, parent?: string): string | undefined => syms.find((s) => s.name === name && s.parent === parent)?.symbol_id;
    const out = async (caller: string): Promise<Ref[]> => (await mg(root, ["refs", "--name", caller, "--direction", "out", "--path", "ts/scopes.ts"])).env.data.references as Ref[];
    // `next(v)` inside the literal's `next:` is the parameter, not the property itself.
    const relayCalls = (await out("relay")).filter((r) => r.referenced_symbol === "next" && r.reference_kind === "call");
    assert.ok(relayCalls.length > 0);
    const literalNext = syms.find((s) => s.name === "next" && s.span.file_path === "ts/scopes.ts")?.symbol_id;
    for (const r of relayCalls.filter((x) => x.caller === "next")) assert.notEqual(r.target_symbol_id, literalNext, JSON.stringify(r));
    // `tick()` in the method tick is the module's function tick.
    const fromMethod = (await out("tick")).find((r) => r.referenced_symbol === "tick" && r.reference_kind === "call" && r.caller === "tick");
    assert.equal(fromMethod?.target_symbol_id, idOf("tick"), JSON.stringify(fromMethod));
    assert.equal(fromMethod?.resolution, "exact");
    // `self.tick()` (self = this) in begin is Clock.tick, not the literal's `tick:`.
    const viaSelf = (await out("tick")).find((r) => r.referenced_symbol === "tick" && r.qualifier === "self");
    assert.equal(viaSelf?.target_symbol_id, idOf("tick", "Clock"), JSON.stringify(viaSelf));
  });

  it("all nine languages: symbols with every enclosing scope, and resolved calls", async () => {
    const expect: [string, string, string][] = [
      ["area", "py.pkg.shapes.Circle.area", "Method"],
      ["convert", "crate::convert", "Function"],
      ["twice", "c/util.twice", "Function"],
      ["SQUARE", "c/util.SQUARE", "Macro"],
      ["use_point", "cpp/geo::use_point", "Function"],
      ["greet", "com.acme.Greeter.greet", "Method"],
      ["twice", "js/lib.twice", "Function"],
      ["View", "js/view.View", "Function"],
      ["method", "ts/app.Shapes.Outer.method", "Method"],
      ["Button", "tsx/Button.Button", "Function"],
      ["Area", "go/shapes.Square.Area", "Method"],
    ];
    for (const [name, fqn, kind] of expect) {
      const { env } = await mg(root, ["find", "--name", name]);
      const m = (env.data.matches as Match[]).find((x) => x.display_fqn === fqn);
      assert.ok(m, `${fqn} in ${JSON.stringify((env.data.matches as Match[]).map((x) => x.display_fqn))}`);
      assert.equal(m.kind, kind, fqn);
      assert.equal(spanText(root, m.name_span), name);
    }
    const calls: [string, string, string][] = [
      // `NewSquare(side).Area()`: NewSquare returns a *Square, so Area is its method for sure.
      ["Total", "Area", "exact"],
      ["Total", "NewSquare", "exact"],
      ["twice", "add", "exact"],
      ["View", "sum", "imported"],
      ["run", "make_circle", "imported"],
      ["convert", "new", "exact"],
    ];
    for (const [caller, callee, how] of calls) {
      const { env } = await mg(root, ["refs", "--name", caller, "--direction", "out"]);
      const r = (env.data.references as Ref[]).find((x) => x.referenced_symbol === callee && x.reference_kind === "call");
      assert.equal(r?.resolution, how, `${caller} -> ${callee}: ${JSON.stringify(env.data.references)}`);
    }
  });

  it("find --name: exact symbols with kind, parent, fqn, ids and exact spans", async () => {
    const { r, env } = await mg(root, ["find", "--name", "inner"]);
    assert.equal(r.code, 0);
    const m = env.data.matches as Match[];
    assert.equal(m.length, 1);
    const s = m[0] as Match;
    assert.equal(s.kind, "Method");
    assert.equal(s.kind_normalized, "method");
    assert.equal(s.parent, "Outer");
    assert.equal(s.display_fqn, "ts/app.Shapes.Outer.inner");
    assert.match(s.symbol_id, /^[0-9a-f]{16}$/);
    assert.equal(spanText(root, s.name_span), "inner");
    assert.match(spanText(root, s.span), /^(private )?inner\(x: number\): number \{[\s\S]*\}$/);
  });

  it("two `new` methods in two impl blocks are two symbols with two ids", async () => {
    const { env } = await mg(root, ["find", "--name", "new", "--kind", "method"]);
    const m = env.data.matches as Match[];
    assert.equal(m.length, 2);
    assert.notEqual(m[0]?.symbol_id, m[1]?.symbol_id);
    assert.deepEqual(m.map((x) => x.display_fqn).sort(), ["crate::Feet::new", "crate::Meters::new"]);
  });

  it("overloads get distinct ids; every name span holds the name", async () => {
    const { env } = await mg(root, ["find", "--name", "format"]);
    const m = env.data.matches as Match[];
    assert.equal(m.length, 3);
    assert.equal(new Set(m.map((x) => x.symbol_id)).size, 3);
    for (const x of m) assert.equal(spanText(root, x.name_span), "format");
  });

  it("find --match prefix / substring / fuzzy, --kind, --path", async () => {
    const pre = await mg(root, ["find", "--name", "make", "--match", "prefix"]);
    assert.deepEqual((pre.env.data.matches as Match[]).map((x) => x.name).sort(), ["makePanel", "make_circle"]);
    const sub = await mg(root, ["find", "--name", "ircl", "--match", "substring"]);
    assert.ok((sub.env.data.matches as Match[]).some((x) => x.name === "Circle"));
    const fz = await mg(root, ["find", "--name", "helpr", "--match", "fuzzy"]);
    assert.equal((fz.env.data.matches as Match[])[0]?.name, "helper");
    const kind = await mg(root, ["find", "--name", "Panel", "--kind", "class"]);
    assert.equal((kind.env.data.matches as Match[]).length, 1);
    const path = await mg(root, ["find", "--name", "render", "--path", "ts/other.ts"]);
    assert.deepEqual((path.env.data.matches as Match[]).map((x) => x.span.file_path), ["ts/other.ts"]);
  });

  it("find --symbol-id round-trips", async () => {
    const { env } = await mg(root, ["find", "--name", "make_circle"]);
    const id = (env.data.matches as Match[])[0]?.symbol_id as string;
    const again = await mg(root, ["find", "--symbol-id", id]);
    assert.equal((again.env.data.matches as Match[])[0]?.name, "make_circle");
  });

  it("an unknown name is an error with a remediation and did-you-mean names", async () => {
    const { r, env } = await mg(root, ["find", "--name", "helpr"]);
    assert.equal(r.code, 1);
    assert.equal(env.data.code, "MAGELLAN_E104");
    assert.match(String(env.data.message), /did you mean: .*helper/);
    assert.match(String(env.data.remediation), /'helper'/);
  });

  it("find --name takes a name qualified by its scopes, in any language's separator", async () => {
    const all = (await mg(root, ["find", "--name", "new"])).env.data.matches as Match[];
    assert.ok(all.length >= 2, "the fixture has several `new`");
    for (const m of all) {
      // The display_fqn's last two segments, written with '.', '::' or '/' between them.
      const tail = m.display_fqn.split(/::|\.|\//).slice(-2);
      for (const sep of [".", "::"]) {
        const { env } = await mg(root, ["find", "--name", tail.join(sep)]);
        const got = env.data.matches as Match[];
        assert.ok(got.some((g) => g.symbol_id === m.symbol_id), `${tail.join(sep)} finds ${m.display_fqn}`);
        assert.ok(got.every((g) => g.display_fqn.split(/::|\.|\//).slice(-2).join("/") === tail.join("/")), JSON.stringify(got.map((g) => g.display_fqn)));
      }
    }
    // A qualifier that matches nothing names the symbols the last segment does match.
    const { r, env } = await mg(root, ["find", "--name", "NoSuchType.new"]);
    assert.equal(r.code, 1);
    assert.equal(env.data.code, "MAGELLAN_E104");
    assert.match(String(env.data.message), /symbols named 'new': /);
  });

  it("refs, callers and callees read a qualified name as find does: only that symbol's references", async () => {
    // Two symbols are named `new`; Feet's is the one with a reference.
    const all = (await mg(root, ["find", "--name", "new"])).env.data.matches as Match[];
    assert.equal(all.length, 2);
    const one = all.find((m) => m.display_fqn.endsWith("Feet::new")) as Match;
    const qualified = "Feet.new";
    const byId = await mg(root, ["refs", "--symbol-id", one.symbol_id]);
    for (const cmd of ["refs", "callers", "callees"]) {
      const { r, env } = await mg(root, [cmd, "--name", qualified]);
      assert.equal(r.code, 0, `${cmd} --name ${qualified}: ${r.stdout}`);
      assert.deepEqual(env.data.symbol_ids, [one.symbol_id], cmd);
      if (cmd === "refs") {
        const spans = (x: unknown): unknown[] => (x as Ref[]).map((ref) => ref.span);
        assert.ok((byId.env.data.references as Ref[]).length > 0, "the symbol has references");
        assert.deepEqual(spans(env.data.references), spans(byId.env.data.references));
      }
    }
    const wrong = await mg(root, ["refs", "--name", "NoSuchType.new"]);
    assert.equal(wrong.r.code, 1);
    assert.match(String(wrong.env.data.message), /symbols named 'new': /);
  });

  it("refs resolve through import aliases, this, and namespaces; say how", async () => {
    const { env } = await mg(root, ["refs", "--name", "helper", "--direction", "in"]);
    const refs = env.data.references as Ref[];
    const call = refs.find((x) => x.reference_kind === "call");
    assert.ok(call, JSON.stringify(refs));
    assert.equal(call.referenced_symbol, "double");
    assert.equal(call.resolution, "imported");
    assert.equal(call.caller, "method");
    const out = await mg(root, ["refs", "--name", "method", "--direction", "out"]);
    const inner = (out.env.data.references as Ref[]).find((x) => x.referenced_symbol === "inner");
    assert.equal(inner?.resolution, "exact");
  });

  it("an ambiguous member call lists its candidates and is wired to none", async () => {
    const { env } = await mg(root, ["refs", "--name", "main", "--direction", "out"]);
    const renders = (env.data.references as Ref[]).filter((x) => x.referenced_symbol === "render");
    const amb = renders.filter((x) => x.resolution === "ambiguous");
    assert.ok(amb.length >= 1, JSON.stringify(renders));
    for (const a of amb) {
      assert.equal(a.target_symbol_id, undefined);
      assert.ok((a.candidates ?? []).length >= 2);
    }
    // `new Widget().render()` names its type: not ambiguous.
    assert.ok(renders.some((x) => x.resolution !== "ambiguous" && x.target_symbol_id !== undefined));
  });

  it("query --file lists a file's symbols; --kind filters", async () => {
    const { env } = await mg(root, ["query", "--file", "py/pkg/shapes.py"]);
    const names = (env.data.symbols as Match[]).map((s) => s.name);
    assert.deepEqual(names, ["Circle", "__init__", "area", "make_circle"]);
    const k = await mg(root, ["query", "--file", "py/pkg/shapes.py", "--kind", "fn"]);
    assert.deepEqual((k.env.data.symbols as Match[]).map((s) => s.name), ["make_circle"]);
  });

  it("query of a file that is not indexed, or outside the root, is refused", async () => {
    const miss = await mg(root, ["query", "--file", "ts/nope.ts"]);
    assert.equal(miss.r.code, 1);
    assert.equal(miss.env.data.code, "MAGELLAN_E105");
    const out = await mg(root, ["query", "--file", "../../etc/passwd"]);
    assert.equal(out.r.code, 2);
    assert.equal(out.env.data.code, "MAGELLAN_E001");
  });

  it("rich spans: context, checksums, callers and callees", async () => {
    const { env } = await mg(root, ["find", "--name", "helper", "--with-context", "1", "--with-checksums", "--with-callers", "--with-callees"]);
    const s = (env.data.matches as Match[])[0] as Match;
    assert.deepEqual(s.context?.selected, ["export function helper(x: number): number {", "  return x * 2;", "}"]);
    assert.deepEqual(s.context?.before, []);
    assert.deepEqual(s.context?.after, [""]);
    const bytes = readFileSync(join(root, s.span.file_path));
    const sha = (b: Uint8Array): string => `sha256:${createHash("sha256").update(b).digest("hex")}`;
    assert.equal(s.checksums?.checksum_before, sha(bytes.subarray(s.span.byte_start, s.span.byte_end)));
    assert.equal(s.checksums?.file_checksum_before, sha(bytes));
    assert.deepEqual(s.relationships?.callers.map((c) => [c.symbol, c.span.file_path]), [["method", "ts/app.ts"]]);
    // Each call site is a contract Span, the very span `refs` gives that call (here under an import alias).
    const refs = (await mg(root, ["refs", "--name", "helper", "--direction", "in"])).env.data.references as Ref[];
    for (const c of s.relationships?.callers ?? []) {
      assert.ok(refs.some((r) => r.span.span_id === c.span.span_id && r.span.byte_start === c.span.byte_start), JSON.stringify(c));
      assert.match(readFileSync(join(root, c.span.file_path)).subarray(c.span.byte_start, c.span.byte_end).toString("utf8"), /^\w+$/);
    }
    assert.deepEqual(s.relationships?.callees, []);
    // The file's last line has no blank line after it (the start after the final newline begins none).
    const last = ((await mg(root, ["find", "--name", "Widget", "--with-context", "2"])).env.data.matches as Match[])[0] as Match;
    assert.deepEqual(last.context?.selected.at(-1), "}");
    assert.deepEqual(last.context?.after, []);
  });

  it("files --symbols, collisions, validate on a fresh index", async () => {
    const f = await mg(root, ["files", "--symbols"]);
    const counts = f.env.data.symbol_counts as Record<string, number>;
    assert.equal(counts["ts/util.ts"], 6);
    const c = await mg(root, ["collisions", "--field", "name"]);
    const groups = c.env.data.collisions as { value: string; count: number }[];
    assert.ok(groups.some((g) => g.value === "render" && g.count >= 2));
    const v = await mg(root, ["validate"]);
    assert.equal(v.env.data.passed, true, JSON.stringify(v.env.data));
    assert.deepEqual(codes(v.env), []);
  });

  it("usage errors are envelopes with exit 2: no command, unknown command, bad flag values", async () => {
    for (const args of [[], ["bogus"], ["find", "--name", "x", "--match", "bogus"], ["refs", "--name", "x", "--direction", "up"], ["find"]]) {
      const { r, env } = await mg(root, args);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stdout}`);
      assert.equal(env.data.code, "MAGELLAN_E000");
    }
  });

  it("`find --name N --db code.db` works as written, from the folder holding the db", async () => {
    const { r, env } = await mg(join(root, ".magellan"), ["find", "--name", "convert", "--db", "code.db"], { cwd: join(root, ".magellan") });
    assert.equal(r.code, 0, r.stdout);
    assert.equal((env.data.matches as Match[])[0]?.span.file_path, "rs/src/lib.rs");
  });

  it("another tree's index named with --db is refused (MAGELLAN_E116) by queries and index, which dropped its files and filled it with this tree's; a copy of a tree with its index is its own", async () => {
    const other = copyFixture("multi", ["py"]);
    const dbPath = join(root, ".magellan", "code.db");
    const before = (await mg(root, ["status"])).env.data as { files: number };
    const q = await mg(other, ["find", "--name", "convert", "--root", other, "--db", dbPath]);
    assert.equal(q.r.code, 2, q.r.stdout);
    assert.equal(q.env.data.code, "MAGELLAN_E116");
    assert.match(String(q.env.data.message), new RegExp(`is of ${root.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}, not of `));
    const ix = await mg(other, ["index", "--root", other, "--db", dbPath]);
    assert.equal(ix.r.code, 2, ix.r.stdout);
    assert.equal(ix.env.data.code, "MAGELLAN_E116");
    assert.equal(((await mg(root, ["status"])).env.data as { files: number }).files, before.files, "the other index is untouched");
    // Without --root the database answers for its own tree, from anywhere.
    assert.equal((await mg(other, ["find", "--name", "convert", "--db", dbPath])).r.code, 0);
    // A tree copied with its index: the index is inside --root, and takes the copy's place.
    const copy = tempDir("magellan-copy-");
    cpSync(root, copy, { recursive: true });
    assert.equal((await mg(copy, ["find", "--name", "convert"])).r.code, 0);
    assert.equal((await mg(copy, ["index"])).r.code, 0);
  });
});
