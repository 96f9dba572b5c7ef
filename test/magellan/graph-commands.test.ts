/**
 * magellan's graph commands on a real index of a small TypeScript + Python project
 * (fixtures/magellan/graph): a file cycle (a.ts <-> b.ts), function cycles across files (a <-> b)
 * and within one (ping <-> pong), dead code against exported, test and main entries, paths,
 * slices both ways; each answer with the evidence of its edges and the calls it could not follow.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { tempDir, writeTree } from "../support/run.js";
import { type SpanLike, indexed, mg, spanText } from "./support.js";

interface Sym {
  symbol_id: string;
  name: string;
  span: SpanLike;
  depth?: number;
  unresolved_uses_of_name?: number;
}
interface Evidence {
  by_resolution: Record<string, number>;
  edge_count: number;
  edges?: { from: string; to: string; count: number; resolution: Record<string, number>; kinds: Record<string, number> }[];
}
interface Gap {
  count: number;
  by_reason: Record<string, number>;
  samples: { span?: SpanLike; name?: string; reason: string; caller?: string }[];
}

let root: string;

describe("graph commands", () => {
  before(async () => {
    root = await indexed("graph");
  });

  it("cycles --level file: a.ts and b.ts import each other, through resolved imports", async () => {
    const { r, env } = await mg(root, ["cycles"]);
    assert.equal(r.code, 0, r.stdout);
    const d = env.data as unknown as { count: number; cycles: { size: number; members: { file_path: string }[] }[]; evidence: Evidence };
    assert.equal(d.count, 1);
    assert.deepEqual(d.cycles[0]?.members.map((m) => m.file_path), ["src/a.ts", "src/b.ts"]);
    assert.deepEqual(d.evidence.by_resolution, { imported: 2 });
    assert.deepEqual(d.evidence.edges?.map((e) => `${e.from}>${e.to}`), ["src/a.ts>src/b.ts", "src/b.ts>src/a.ts"]);
  });

  it("cycles --level symbol: a <-> b across files, ping <-> pong within one, with each edge's label", async () => {
    const { r, env } = await mg(root, ["cycles", "--level", "symbol"]);
    assert.equal(r.code, 0, r.stdout);
    const d = env.data as unknown as { count: number; cycles: { members: Sym[] }[]; evidence: Evidence };
    assert.deepEqual(
      d.cycles.map((c) => c.members.map((m) => m.name)),
      [
        ["a", "b"],
        ["ping", "pong"],
      ],
    );
    for (const m of d.cycles[0]?.members ?? []) assert.match(spanText(root, m.span), new RegExp(`^function ${m.name}\\(`));
    // a and b call each other through imports; ping and pong by name in their own file.
    assert.deepEqual(d.evidence.by_resolution, { imported: 2, exact: 2 });
    assert.ok(d.evidence.edges?.every((e) => e.kinds.call === 1));
  });

  it("condense: the DAG of components, a.ts+b.ts as one node", async () => {
    const { r, env } = await mg(root, ["condense"]);
    assert.equal(r.code, 0, r.stdout);
    const d = env.data as unknown as { node_count: number; count: number; cyclic_count: number; components: { id: number; members: string[]; cyclic: boolean }[]; edges: { from: number; to: number }[] };
    assert.equal(d.count, d.node_count - 1);
    assert.equal(d.cyclic_count, 1);
    const ab = d.components.find((c) => c.members.includes("src/a.ts"));
    assert.deepEqual(ab?.members, ["src/a.ts", "src/b.ts"]);
    const app = d.components.find((c) => c.members.includes("src/app.ts"));
    const pp = d.components.find((c) => c.members.includes("src/pingpong.ts"));
    const edges = d.edges.map((e) => `${e.from}>${e.to}`);
    assert.ok(edges.includes(`${app?.id}>${ab?.id}`) && edges.includes(`${app?.id}>${pp?.id}`), edges.join(" "));
    assert.ok(d.edges.every((e) => e.from !== e.to));
  });

  it("dead-code: orphan and _dead are unreachable; _helper lives through the public api, _tested_only through a test", async () => {
    const { r, env } = await mg(root, ["dead-code"]);
    assert.equal(r.code, 0, r.stdout);
    const d = env.data as unknown as { count: number; symbols: Sym[]; entries: { by_rule: Record<string, number> }; unresolved: Gap; possibly_dynamic: number };
    assert.deepEqual(d.symbols.map((s) => s.name).sort(), ["_dead", "orphan"]);
    const orphan = d.symbols.find((s) => s.name === "orphan") as Sym;
    assert.match(spanText(root, orphan.span), /^function orphan\(\): number/);
    assert.equal(orphan.unresolved_uses_of_name, 0);
    assert.equal((orphan as Sym & { referenced_by_unreachable: number }).referenced_by_unreachable, 0);
    assert.ok((d.entries.by_rule.exported ?? 0) >= 4 && d.entries.by_rule.test === 1 && d.entries.by_rule.main === 1, JSON.stringify(d.entries));
    // load() calls handlers.fallback.call(): a call nobody can follow statically. (Its `handler()`
    // calls a local, which is not a reference: see docs/magellan.md, locals.)
    assert.equal(d.unresolved.count, 1);
    assert.deepEqual(d.unresolved.by_reason, { dynamic_receiver: 1 });
    const warning = (env.diagnostics ?? []).find((x) => x.code === "MAGELLAN_E112");
    assert.ok(warning && /reported dead falsely/.test(warning.message), JSON.stringify(env.diagnostics));

    // Without the default entries, only what --entry reaches is live.
    const named = await mg(root, ["dead-code", "--entry", "api", "--no-default-entries"]);
    assert.equal(named.r.code, 0, named.r.stdout);
    const n = named.env.data as unknown as { symbols: Sym[] };
    const names = n.symbols.map((s) => s.name);
    assert.ok(names.includes("_tested_only") && names.includes("main") && !names.includes("_helper") && !names.includes("api"), names.join(" "));
  });

  it("paths: main reaches b through run and a; b never reaches main", async () => {
    const { r, env } = await mg(root, ["paths", "--from", "main", "--to", "b"]);
    assert.equal(r.code, 0, r.stdout);
    const d = env.data as unknown as { count: number; paths: { length: number; symbols: Sym[] }[]; evidence: Evidence; unresolved: Gap };
    assert.deepEqual(
      d.paths.map((p) => p.symbols.map((s) => s.name)),
      [["main", "run", "a", "b"]],
    );
    assert.equal(d.paths[0]?.length, 3);
    assert.deepEqual(d.evidence.by_resolution, { exact: 1, imported: 2 });
    // load() is within reach of main: its dynamic call might lead to b too.
    assert.equal(d.unresolved.count, 1);
    const none = await mg(root, ["paths", "--from", "b", "--to", "main"]);
    assert.equal(none.r.code, 0, none.r.stdout);
    assert.equal((none.env.data as { count: number }).count, 0);
    assert.ok((none.env.diagnostics ?? []).some((x) => /no path of at most 10 edges/.test(x.message)));
  });

  it("slice forward and backward, with depths", async () => {
    const fwd = await mg(root, ["slice", "--symbol", "run", "--direction", "forward", "--edges", "call"]);
    assert.equal(fwd.r.code, 0, fwd.r.stdout);
    const f = fwd.env.data as unknown as { symbols: Sym[]; unresolved: Gap };
    assert.deepEqual(
      f.symbols.map((s) => `${s.name}@${s.depth}`),
      ["a@1", "load@1", "start@1", "b@2", "ping@2", "pong@3"],
    );
    assert.equal(f.unresolved.count, 1);
    assert.ok(f.unresolved.samples.every((s) => s.caller === "load"));
    // Every reference, not only calls: load reads the handlers table, whose type is Handler.
    const all = await mg(root, ["slice", "--symbol", "run", "--direction", "forward"]);
    const a = all.env.data as unknown as { symbols: Sym[]; evidence: Evidence };
    assert.deepEqual(a.symbols.map((s) => s.name).filter((n) => n.startsWith("handler") || n === "Handler"), ["handlers", "Handler"]);
    assert.ok(a.evidence.edges?.some((e) => e.kinds.type === 1), JSON.stringify(a.evidence.edges));
    const noDirection = await mg(root, ["slice", "--symbol", "run"]);
    assert.equal(noDirection.r.code, 2, noDirection.r.stdout);
    const back = await mg(root, ["slice", "--symbol", "src/pingpong.ping", "--direction", "backward"]);
    assert.equal(back.r.code, 0, back.r.stdout);
    const b = back.env.data as unknown as { symbols: Sym[]; evidence: Evidence };
    assert.deepEqual(
      b.symbols.map((s) => `${s.name}@${s.depth}`),
      ["pong@1", "start@1", "run@2", "main@3"],
    );
    assert.equal(b.evidence.edge_count, b.evidence.edges?.length);
  });

  it("reachable --reverse equals a backward slice; --max-depth cuts with partial and exit 4", async () => {
    const rev = await mg(root, ["reachable", "--symbol", "ping", "--reverse"]);
    assert.equal(rev.r.code, 0, rev.r.stdout);
    assert.deepEqual(
      (rev.env.data as { symbols: Sym[] }).symbols.map((s) => s.name),
      ["pong", "start", "run", "main"],
    );
    const cut = await mg(root, ["reachable", "--symbol", "main", "--max-depth", "1"]);
    assert.equal(cut.r.code, 4, cut.r.stdout);
    assert.equal(cut.env.partial, true);
    assert.deepEqual((cut.env.data as { symbols: Sym[] }).symbols.map((s) => s.name), ["run"]);
  });

  it("a name shared by several symbols is an error listing them; an unknown one suggests names", async () => {
    // start is a TypeScript function in src/pingpong.ts and a Python one in pkg/core.py.
    const amb = await mg(root, ["reachable", "--symbol", "start"]);
    assert.equal(amb.r.code, 1, amb.r.stdout);
    assert.equal(amb.env.data.code, "MAGELLAN_E109");
    assert.match(amb.env.data.message ?? "", /names 2 symbols: .*src\/pingpong\.start.*pkg\.core\.start|names 2 symbols: .*pkg\.core\.start.*src\/pingpong\.start/);
    const byFqn = await mg(root, ["reachable", "--symbol", "pkg.core.start"]);
    assert.equal(byFqn.r.code, 0, byFqn.r.stdout);
    assert.deepEqual((byFqn.env.data as { symbols: Sym[] }).symbols.map((s) => s.name), ["api", "_helper"]);
    const { r, env } = await mg(root, ["slice", "--symbol", "pingg", "--direction", "forward"]);
    assert.equal(r.code, 1, r.stdout);
    assert.equal(env.data.code, "MAGELLAN_E104");
    assert.match(env.data.message ?? "", /did you mean: ping/);
  });
});

interface DeadCode { symbols: { name: string; display_fqn: string; span: { start_line: number } }[]; entries: { by_rule: Record<string, number> } }

/** dead-code's answer (exit 0) on a fresh index of the files `files`. */
async function deadCodeOf(name: string, files: Record<string, string>): Promise<DeadCode> {
  const root = writeTree(tempDir(`magellan-${name}-`), files);
  assert.equal((await mg(root, ["index"])).r.code, 0);
  const { r, env } = await mg(root, ["dead-code"]);
  assert.equal(r.code, 0, r.stdout);
  return env.data as unknown as DeadCode;
}

describe("dead-code and build variants", () => {
  it("a definition with a same-named twin in another file of its package (build tags) is live when the twin is", async () => {
    // cobra: preExecHookFn in command_win.go and command_notwin.go; a call is tied to one of them.
    const dead = await deadCodeOf("variants", {
      "go.mod": "module example.com/v\n\ngo 1.22\n",
      "main.go": "package main\n\nfunc main() {\n\thookFn()\n}\n",
      "hook_win.go": "//go:build windows\n\npackage main\n\nvar hookFn = winHook\n\nfunc winHook() {}\n",
      "hook_other.go": "//go:build !windows\n\npackage main\n\nvar hookFn = func() {}\n",
      "unused.go": "package main\n\nfunc orphan() {}\n",
    });
    const names = dead.symbols.map((s) => s.name).sort();
    assert.deepEqual(names, ["orphan"]);
  });

  it("an object literal's methods live where the code that makes the object does (drizzle's bench(..., { firstName: (t) => ... })); an exported class's methods are its API", async () => {
    const dead = await deadCodeOf("literal", {
      "bench.ts": [
        'import { bench } from "mitata";',
        "",
        'bench("select", { firstName: (t: number) => t + 1, middleName() { return 2; } });',
        "",
        "export function setup() {",
        "  return { onClick() { return helper(); } };",
        "}",
        "",
        "function helper() { return 1; }",
        "",
        "function build() { return 2; }",
        "",
        "const api = { get() { return 3; } };",
        "export default api;",
        "",
        "function unused() { return { inner() { return 4; } }; }",
        "",
        "export class Cart {",
        "  union = this.setOperator();",
        "  private setOperator() { return build(); }",
        "  total() { return this.#sum() + this.secret(); }",
        "  #sum() { return 0; }",
        "  private secret() { return 0; }",
        "  private stale() { return 1; }",
        "}",
        "",
        "class Local { size() { return 0; } }",
        "",
        "export const Table = wrap(function Table() { return { accessor() { return 1; } }; });",
        "",
        "export function middleware() {",
        "  return function handle() { return 2; };",
        "}",
        "",
        "export class Plugin {",
        "  constructor() { register({ apply() { return 3; } }); }",
        "}",
        "",
        "export interface Strategy { fail(): void; }",
        "export type Events = { change(): void };",
        "",
      ].join("\n"),
      // A declaration file has no code to delete.
      "typings/passport.d.ts": "declare module 'passport' { export function authorize(): void; }\n",
      // tsd's type tests (commander.js's typings/index.test-d.ts) are tests.
      "typings/index.test-d.ts": "class MyCommand { myFunction() { return 1; } }\nexport const c = new MyCommand();\n",
    });
    // unused and its literal's method are dead; an exported class's methods are its API, but
    // not its private ones, nor an unexported class's (called through receivers, unfollowed);
    // a function in an initializer, one returned, a constructor's literal live with their holder;
    // interface and type members are no code.
    assert.deepEqual(dead.symbols.map((s) => s.name).sort(), ["Local", "inner", "size", "stale", "unused"]);
    assert.equal(dead.entries.by_rule.object_literal, 6);
    assert.equal(dead.entries.by_rule.initializer, 1);
    assert.equal(dead.entries.by_rule.nested, 1);
    assert.equal(dead.entries.by_rule.constructor, 1);
  });

  it("C++ destructors and members defined outside their class, Rust trait impls and #[test] above the item are entries (fmt's os.cc, hexyl's tests.rs)", async () => {
    const dead = await deadCodeOf("native-entries", {
      "src/os.cc": "namespace os {\nclass file;\nint file_write(int n) { return n; }\nint file::write(int n) { return file_write(n); }\nfile::~file() { }\nstatic int orphan() { return 0; }\n}\n",
      // A member of a class a header declares, defined in a source file (its parent is the header's class).
      "src/buffer.h": "namespace os {\nclass buffer {\n public:\n  int size() const;\n};\n}\n",
      "src/buffer.cc": "#include \"buffer.h\"\nnamespace os {\nint buffer::size() const { return 0; }\n}\n",
      "Cargo.toml": "[package]\nname = \"hx\"\nversion = \"0.1.0\"\n",
      "src/lib.rs": "pub struct Input;\n\nimpl std::io::Read for Input {\n    fn read(&mut self, b: &mut [u8]) -> std::io::Result<usize> { Ok(b.len()) }\n}\n\nstruct Hidden;\n\nimpl Clone for Hidden {\n    fn clone(&self) -> Self { Hidden }\n}\n\n#[cfg(test)]\nmod tests;\n",
      "src/tests.rs": "use super::*;\n\n#[test]\nfn reads() {\n    helper();\n}\n\nfn helper() {}\n",
    });
    const names = dead.symbols.map((s) => s.display_fqn).sort();
    // Hidden is never made, so its clone is not either; orphan is called by no one.
    assert.deepEqual(names.filter((n) => !n.endsWith("Hidden")), ["crate::<Hidden as Clone>::clone", "src/os::os::orphan"]);
  });

  it("Python: a folder of modules without __init__.py inside a package is part of it, its public API exported (flask's sansio/)", async () => {
    const dead = await deadCodeOf("namespace-pkg", {
      "src/flask/__init__.py": "",
      "src/flask/sansio/app.py": "class App:\n    def redirect(self, location):\n        return location\n\n    def _hidden(self):\n        return 1\n",
      "scripts/tool.py": "def helper():\n    return 2\n",
    });
    // A script folder is no package: its helper is not exported.
    const names = dead.symbols.map((s) => s.display_fqn).sort();
    assert.deepEqual(names, ["flask.sansio.app.App._hidden", "scripts.tool.helper"]);
  });

  it("Java overloads of one argument count live together: a call is tied to one of them as a guess (javapoet's TypeName.get)", async () => {
    const dead = await deadCodeOf("overload", {
      "src/main/java/p/Names.java": [
        "package p;",
        "",
        "final class Names {",
        "  static String get(String type) { return type; }",
        "  static String get(Integer mirror) { return String.valueOf(mirror); }",
        "  static String get(String a, String b) { return a + b; }",
        "  static String unused(String s) { return s; }",
        "",
        "  public static void main(String[] args) {",
        "    System.out.println(get(args[0]));",
        "  }",
        "}",
        "",
      ].join("\n"),
    });
    // The two-argument get is called by no one, nor is unused.
    assert.deepEqual(dead.symbols.map((s) => `${s.name}:${s.span.start_line}`).sort(), ["get:6", "unused:7"]);
    assert.equal(dead.entries.by_rule.overload, 1);
  });

  it("a method overriding a base's lives while its class does (click's AliasedGroup.get_command); a base outside the repository may call any", async () => {
    const dead = await deadCodeOf("override", {
      "app.py": [
        "import io",
        "",
        "",
        "class Base:",
        "    def run(self):",
        "        return self.step()",
        "",
        "    def step(self):",
        "        return 0",
        "",
        "",
        "class Child(Base):",
        "    def step(self):",
        "        return 1",
        "",
        "    def extra(self):",
        "        return 3",
        "",
        "",
        "class Unused(Base):",
        "    def step(self):",
        "        return 9",
        "",
        "",
        "class Stream(io.RawIOBase):",
        "    def readable(self):",
        "        return True",
        "",
        "",
        "def main():",
        "    Child().run()",
        "    return Stream()",
        "",
      ].join("\n"),
    });
    // Child.step and Stream.readable live through their bases; Unused is never made, nor its step.
    assert.deepEqual(dead.symbols.map((s) => s.display_fqn).sort(), ["app.Child.extra", "app.Unused", "app.Unused.step"]);
    assert.equal(dead.entries.by_rule.override, 2);
  });

  it("Go: func _(), stringer's compile-time check, is no dead code", async () => {
    // fzf's actiontype_string.go and tui/eventtype_string.go.
    const dead = await deadCodeOf("blank-func", {
      "go.mod": "module example.com/v\n\ngo 1.22\n",
      "main.go": "package main\n\ntype actionType int\n\nconst actIgnore actionType = 0\n\nfunc main() {}\n\nfunc orphan() {}\n",
      "actiontype_string.go":
        "// Code generated by \"stringer -type=actionType\"; DO NOT EDIT.\n\npackage main\n\nfunc _() {\n\tvar x [1]struct{}\n\t_ = x[actIgnore-0]\n}\n",
    });
    assert.deepEqual(dead.symbols.map((s) => s.name), ["orphan"]);
  });

  it("Go: a method that implements an interface of the repository is called through it (urfave/cli's ArgumentBase.required)", async () => {
    const dead = await deadCodeOf("go-iface", {
      "go.mod": "module example.com/v\n\ngo 1.22\n",
      "main.go":
        "package main\n\ntype requiredArgument interface {\n\trequired() bool\n\tname() string\n}\n\nfunc check(args []any) {\n\tfor _, a := range args {\n\t\tif r, ok := a.(requiredArgument); ok && r.required() {\n\t\t\tprintln(r.name())\n\t\t}\n\t}\n}\n\nfunc main() {\n\tcheck([]any{&arg{}, &half{}})\n}\n",
      // arg has both methods; half has one and embeds nothing, so it implements no interface.
      "arg.go": "package main\n\ntype arg struct{}\n\nfunc (a *arg) required() bool { return true }\n\nfunc (a *arg) name() string { return \"a\" }\n\ntype half struct{}\n\nfunc (h *half) name() string { return \"h\" }\n",
    });
    assert.deepEqual(dead.symbols.map((s) => s.display_fqn).sort(), ["half.name"]);
  });

  it("Rust: a trait's bodiless method is no code; #[cfg] alternatives of one function in a file live together (bat's color_scheme_from_system)", async () => {
    const dead = await deadCodeOf("rust-cfg", {
      "Cargo.toml": "[package]\nname = \"b\"\nversion = \"0.1.0\"\n",
      "src/main.rs":
        "trait Decoration {\n    fn width(&self) -> usize;\n    fn unused_default(&self) -> usize { 0 }\n}\n\nstruct Line;\n\nimpl Decoration for Line {\n    fn width(&self) -> usize { 1 }\n}\n\n#[cfg(not(target_os = \"macos\"))]\nfn scheme() -> u8 { 0 }\n\n#[cfg(target_os = \"macos\")]\nfn scheme() -> u8 { 1 }\n\nfn main() {\n    let d: Box<dyn Decoration> = Box::new(Line);\n    println!(\"{} {}\", d.width(), scheme());\n}\n",
    });
    assert.deepEqual(dead.symbols.map((s) => s.display_fqn).sort(), ["crate::Decoration::unused_default"]);
  });

  it("Rust: rstest's and tokio's tests are entries, attributes on several lines and comments between them included (zoxide's #[apply(opts)] shell tests)", async () => {
    const dead = await deadCodeOf("rust-rstest", {
      "Cargo.toml": "[package]\nname = \"z\"\nversion = \"0.1.0\"\n",
      "src/main.rs": [
        "fn matches(k: &str, p: &str) -> bool { p.contains(k) }",
        "",
        "fn main() {}",
        "",
        "#[cfg(test)]",
        "mod tests {",
        "    use super::*;",
        "    use rstest::rstest;",
        "    use rstest_reuse::{apply, template};",
        "",
        "    #[template]",
        "    #[rstest]",
        "    fn opts(#[values(None, Some(\"z\"))] cmd: Option<&str>) {}",
        "",
        "    #[apply(opts)]",
        "    fn bash_bash(cmd: Option<&str>) {",
        "        assert!(cmd.is_none() || matches(\"z\", \"z\"));",
        "    }",
        "",
        "    #[rstest]",
        "    // Exact matches",
        "    #[case(&[\"foo\"], \"/foo\", true)]",
        "    #[case(",
        "        &[\"bar\"],",
        "        \"/foo\",",
        "        false",
        "    )]",
        "    // Overlap",
        "    #[case(&[\"/foo/\", \"/bar\"], \"/foo/bar\", false)]",
        "    fn query(#[case] keywords: &[&str], #[case] path: &str, #[case] is_match: bool) {",
        "        assert_eq!(is_match, keywords.iter().all(|k| matches(k, path)));",
        "    }",
        "",
        "    #[tokio::test]",
        "    async fn async_case() {}",
        "",
        "    fn orphan_helper() {}",
        "}",
        "",
      ].join("\n"),
    });
    assert.deepEqual(dead.symbols.map((s) => s.display_fqn).sort(), ["crate::tests::orphan_helper"]);
  });

  it("TypeScript: overload signatures are no code; a function assigned to another module's object at the top level is handed over (zod's createZodEnum, compile.ts's postProcessor)", async () => {
    const dead = await deadCodeOf("ts-overload", {
      "core.ts": "export const globalConfig: { postProcessor?: (x: number) => void } = {};\n",
      "compile.ts": [
        'import * as core from "./core";',
        "core.globalConfig.postProcessor = (inst: number) => {",
        "  const shim = () => inst;",
        "  shim();",
        "};",
        "function createEnum(values: string[]): number;",
        "function createEnum(values: number[]): number;",
        "function createEnum(values: unknown[]) { return values.length; }",
        "function orphan() { return 1; }",
        "export const make = createEnum;",
        "",
      ].join("\n"),
    });
    assert.deepEqual(dead.symbols.map((s) => s.name), ["orphan"]);
  });

  it("C: a function a header declares is the library's API; #ifdef'd twins in one file live together (libuv's uv_hrtime, spdlog's examples)", async () => {
    const dead = await deadCodeOf("c-api", {
      "include/uv.h": "#ifndef UV_H\n#define UV_H\nUV_EXTERN unsigned long uv_hrtime(void);\n#endif\n",
      "src/core.c": "#include \"uv.h\"\nstatic unsigned long helper(void) { return 1; }\nunsigned long uv_hrtime(void) { return helper(); }\nstatic int orphan(void) { return 0; }\nint undeclared(void) { return 0; }\n",
      "example/main.cpp": "void binary_example();\nint main() { binary_example(); return 0; }\n#ifdef WIN\nvoid binary_example() {}\n#else\nvoid binary_example() {}\n#endif\n",
    });
    assert.deepEqual(dead.symbols.map((s) => s.name).sort(), ["orphan", "undeclared"]);
  });
});

describe("answers that say why", () => {
  it("dead-code with no entry point found lists every function as unreachable, with a note (it was a usage error); an empty index is an empty answer", async () => {
    const dead = await deadCodeOf("no-entry", { "a.c": "static int helper(void) { return 1; }\nstatic int unused(void) { return helper(); }\n" });
    assert.deepEqual(dead.symbols.map((s) => s.name).sort(), ["helper", "unused"]);
    const root = writeTree(tempDir("magellan-dead-empty-"), { "README.txt": "nothing to index\n" });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const empty = await mg(root, ["dead-code"]);
    assert.equal(empty.r.code, 0, empty.r.stdout);
    assert.equal((empty.env.data as unknown as { count: number }).count, 0);
    assert.match(empty.env.diagnostics?.map((d) => d.message).join("\n") ?? "", /holds no symbol/);
    // Turning the default entries off and naming none asks nothing: still a usage error.
    const none = await mg(root, ["dead-code", "--no-default-entries"]);
    assert.equal(none.r.code, 2, none.r.stdout);
  });

  it("a list cut by --limit says which and how to see the rest (cycles' evidence.edges of a 10-function ring)", async () => {
    const ring = Array.from({ length: 10 }, (_, i) => `def f${i}():\n    return f${(i + 1) % 10}()\n`).join("\n");
    const root = writeTree(tempDir("magellan-ring-"), { "m.py": ring });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const { r, env } = await mg(root, ["cycles", "--level", "symbol", "--limit", "5"]);
    assert.equal(r.code, 4, r.stdout);
    assert.equal(env.partial, true);
    assert.match(env.diagnostics?.map((d) => d.message).join("\n") ?? "", /evidence\.edges lists 5 of the 10 edges; raise --limit/);
  });
});
