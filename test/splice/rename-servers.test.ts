import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { indexTree } from "../../src/graph/ingest.js";
import { disposeLanguageServers, planRename, setLanguageServerReuse } from "../../src/tools/splice/rename/index.js";
import { isToolError } from "./rename-errors.js";
import { applyLocations, copyFixture, targetAt } from "./rename-helpers.js";
import { runTool, tempDir, writeTree } from "../support/run.js";
import { goModNewerThan } from "../../src/validate/checkers/go.js";

const made: string[] = [];
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});
const fixture = (name: string): string => {
  const d = copyFixture(name);
  made.push(d);
  return d;
};
const pyright = (root: string): string[] => {
  const r = spawnSync(process.execPath, [join(process.cwd(), "node_modules", "pyright", "index.js"), "-p", root, "--outputjson"], { encoding: "utf8" });
  const out = JSON.parse(r.stdout) as { generalDiagnostics: { file: string; message: string; severity: string }[] };
  return out.generalDiagnostics.filter((d) => d.severity === "error").map((d) => `${d.file}: ${d.message}`);
};

describe("splice rename: Python through pyright", () => {
  it("a method is renamed with the methods that override it (flask's Scaffold._check_setup_finished: pyright renamed only the base's)", async () => {
    const root = fixture("py");
    writeFileSync(join(root, "shop/scaffold.py"), "class Scaffold:\n    def _check(self, name: str) -> None:\n        raise NotImplementedError\n\n    def setup(self) -> None:\n        self._check(\"setup\")\n");
    writeFileSync(join(root, "shop/app.py"), "from shop.scaffold import Scaffold\n\n\nclass App(Scaffold):\n    def _check(self, name: str) -> None:\n        pass\n");
    writeFileSync(join(root, "shop/blueprint.py"), "from .scaffold import Scaffold\n\n\nclass Blueprint(Scaffold):\n    def _check(self, name: str) -> None:\n        print(name)\n\n\nclass Nested(Blueprint):\n    def _check(self, name: str) -> None:\n        super()._check(name)\n");
    const r = await runTool("splice", ["rename", "--file", "shop/scaffold.py", "--symbol", "Scaffold._check", "--to", "_ensure"], { cwd: root });
    assert.equal(r.code, 0, r.stdout);
    const env = r.json as { result: { validation: string; steps?: { engine_diagnostics?: { message: string }[] }[] } };
    assert.equal(env.result.validation, "validated");
    const notes = JSON.stringify(env.result);
    assert.match(notes, /renamed with the methods of the same name it overrides or that override it: [^"]*shop\/app\.py:5 App\._check/, notes.slice(0, 2000));
    assert.match(notes, /Nested\._check/);
    for (const f of ["shop/scaffold.py", "shop/app.py", "shop/blueprint.py"]) assert.doesNotMatch(readFileSync(join(root, f), "utf8"), /_check\b/, f);
    assert.match(readFileSync(join(root, "shop/blueprint.py"), "utf8"), /super\(\)\._ensure\(name\)/);
    assert.deepEqual(pyright(root), []);
  });

  it("uses on values nothing types that the index ties to the method alone refuse the rename (httpx's tests call url.copy_with on pytest fixtures); those shared with another symbol of the name are named in a warning", async () => {
    const root = fixture("py");
    const urls = "class URL:\n    def __init__(self, raw: str) -> None:\n        self.raw = raw\n\n    def copy_with(self, path: str) -> \"URL\":\n        return URL(self.raw + path)\n\n\ndef home() -> URL:\n    return URL(\"/\").copy_with(\"x\")\n";
    const tests = "def test_copy(server):\n    url = server.url.copy_with(path=\"/a\")\n    assert url\n\n\ndef test_join():\n    assert \", \".join([\"a\"])\n";
    writeFileSync(join(root, "shop/urls.py"), urls);
    writeFileSync(join(root, "shop/test_urls.py"), tests);
    const r = await runTool("splice", ["rename", "--file", "shop/urls.py", "--symbol", "URL.copy_with", "--to", "with_path"], { cwd: root });
    assert.equal(r.code, 1, r.stdout);
    const err = (r.json as { error: { code: string; message: string; remediation: string } }).error;
    assert.equal(err.code, "SPLICE_E203");
    assert.match(err.message, /would leave 1 use\(s\) of '\.copy_with' on values of unknown type, which the index ties to it alone \(no other symbol here has the name\): shop\/test_urls\.py:2\b/);
    assert.doesNotMatch(err.message, /test_urls\.py:7/, "a use of another name is not listed");
    assert.match(err.remediation, /--allow-heuristic/);
    // Nothing written.
    assert.equal(readFileSync(join(root, "shop/urls.py"), "utf8"), urls);
    assert.equal(readFileSync(join(root, "shop/test_urls.py"), "utf8"), tests);
    // With another copy_with in the workspace the untyped use may be either's: the rename goes
    // ahead, pyright's typed call renamed, the fixture's left and named.
    writeFileSync(join(root, "shop/paths.py"), "class Path:\n    def copy_with(self, path: str) -> str:\n        return path\n");
    const ok = await runTool("splice", ["rename", "--file", "shop/urls.py", "--symbol", "URL.copy_with", "--to", "with_path"], { cwd: root });
    assert.equal(ok.code, 0, ok.stdout);
    const env = ok.json as { result: { validation: string } };
    assert.equal(env.result.validation, "validated");
    assert.match(readFileSync(join(root, "shop/urls.py"), "utf8"), /URL\("\/"\)\.with_path\("x"\)/);
    assert.match(readFileSync(join(root, "shop/test_urls.py"), "utf8"), /server\.url\.copy_with\(/);
    const text = JSON.stringify(ok.json);
    assert.match(text, /SPLICE_W214/);
    assert.match(text, /1 use\(s\) of '\.copy_with' on values whose type is not known were left as they are[^"]*shop\/test_urls\.py:2\b/, text.slice(0, 3000));
    assert.match(text, /run the rename again with --allow-heuristic to rename every one of them by name/);
  });

  it("--allow-heuristic renames the untyped uses too, as heuristic locations, and says so", async () => {
    const root = fixture("py");
    writeFileSync(join(root, "shop/urls.py"), "class URL:\n    def __init__(self, raw: str) -> None:\n        self.raw = raw\n\n    def copy_with(self, path: str) -> \"URL\":\n        return URL(self.raw + path)\n\n\ndef home() -> URL:\n    return URL(\"/\").copy_with(\"x\")\n");
    writeFileSync(join(root, "shop/test_urls.py"), "def test_copy(server):\n    url = server.url.copy_with(path=\"/a\")\n    assert url\n\n\ndef test_join():\n    assert \", \".join([\"a\"])\n");
    const r = await runTool("splice", ["rename", "--file", "shop/urls.py", "--symbol", "URL.copy_with", "--to", "with_path", "--allow-heuristic"], { cwd: root });
    assert.equal(r.code, 0, r.stdout);
    const env = r.json as { result: { validation: string; steps: { locations: { file: string; evidence: string; new_text: string }[] }[] }; diagnostics: { code: string; message: string }[] };
    assert.equal(env.result.validation, "validated");
    assert.match(readFileSync(join(root, "shop/test_urls.py"), "utf8"), /server\.url\.with_path\(path="\/a"\)/);
    assert.match(readFileSync(join(root, "shop/test_urls.py"), "utf8"), /", "\.join\(/);
    assert.deepEqual(env.result.steps[0]?.locations.filter((l) => l.evidence === "heuristic").map((l) => l.file.replace(/.*\/shop\//, "shop/")), ["shop/test_urls.py"]);
    const w = env.diagnostics.find((d) => d.code === "SPLICE_W214");
    assert.match(w?.message ?? "", /--allow-heuristic: 1 use\(s\) of '\.copy_with' on values whose type is not known, which the index ties to URL\.copy_with by name only, were renamed too \(evidence "heuristic"\): shop\/test_urls\.py:2\b/);
  });

  it("getattr/hasattr/setattr/delattr naming the old name in a string are listed in a SPLICE_W216 warning, and renamed with --allow-heuristic", async () => {
    const root = fixture("py");
    const plugin = 'class Plugin:\n    def run_it(self) -> int:\n        return 1\n\n\ndef go(p: Plugin) -> int:\n    f = getattr(p, "run_it")\n    if hasattr(p, \'run_it\'):\n        return f()\n    return getattr(p, "run_it_later", 0)\n';
    writeFileSync(join(root, "shop/plugin.py"), plugin);
    writeFileSync(join(root, "shop/loader.py"), 'from shop.plugin import Plugin\n\n\ndef unload(p: Plugin) -> None:\n    delattr(p, "run_it")\n    print("run_it")\n');
    const dry = await runTool("splice", ["rename", "--file", "shop/plugin.py", "--symbol", "Plugin.run_it", "--to", "run_now", "--dry-run"], { cwd: root });
    assert.equal(dry.code, 0, dry.stdout);
    const w = (dry.json as { diagnostics: { code: string; message: string }[] }).diagnostics.find((d) => d.code === "SPLICE_W216");
    assert.match(w?.message ?? "", /3 getattr\/hasattr\/setattr\/delattr call\(s\) name 'run_it' in a string and were left as they are: shop\/loader\.py:5, shop\/plugin\.py:7, shop\/plugin\.py:8\./, JSON.stringify(dry.json).slice(0, 3000));
    const r = await runTool("splice", ["rename", "--file", "shop/plugin.py", "--symbol", "Plugin.run_it", "--to", "run_now", "--allow-heuristic"], { cwd: root });
    assert.equal(r.code, 0, r.stdout);
    assert.equal(readFileSync(join(root, "shop/plugin.py"), "utf8"), plugin.replaceAll('"run_it"', '"run_now"').replace("'run_it'", "'run_now'").replace("def run_it", "def run_now"));
    assert.match(readFileSync(join(root, "shop/loader.py"), "utf8"), /delattr\(p, "run_now"\)\n    print\("run_it"\)/, "a string outside those calls is left");
  });

  it("a method is renamed with its overrides in classes whose base is generic (click's ParamType[str] subclasses)", async () => {
    // `class Choice(ParamType[str])` recorded no base, so renaming ParamType.shell_complete left
    // Choice's, Path's and File's behind: they stopped overriding and completion broke at run time.
    const root = fixture("py");
    writeFileSync(
      join(root, "shop/types.py"),
      'import abc\nimport typing as t\n\n_V = t.TypeVar("_V")\n\n\nclass ParamType(t.Generic[_V], abc.ABC):\n    def shell_complete(self, incomplete: str) -> list[str]:\n        return []\n\n\nclass Choice(ParamType[str], t.Generic[_V]):\n    def __init__(self, choices: list[str]) -> None:\n        self.choices = choices\n\n    def shell_complete(self, incomplete: str) -> list[str]:\n        return [c for c in self.choices if c.startswith(incomplete)]\n\n\nclass Path(ParamType[str]):\n    def shell_complete(self, incomplete: str) -> list[str]:\n        return [incomplete + "/"]\n',
    );
    writeFileSync(
      join(root, "shop/core.py"),
      "from .types import ParamType\n\n\nclass Parameter:\n    def __init__(self, type: ParamType[str]) -> None:\n        self.type = type\n\n    def shell_complete(self, incomplete: str) -> list[str]:\n        return self.type.shell_complete(incomplete)\n\n\nclass Command:\n    def shell_complete(self, incomplete: str) -> list[str]:\n        return []\n",
    );
    const r = await runTool("splice", ["rename", "--file", "shop/types.py", "--symbol", "ParamType.shell_complete", "--to", "complete_value"], { cwd: root });
    assert.equal(r.code, 0, r.stdout);
    assert.equal((r.json as { result: { validation: string } }).result.validation, "validated");
    const types = readFileSync(join(root, "shop/types.py"), "utf8");
    assert.equal(types.match(/def complete_value\(/g)?.length, 3, types);
    assert.doesNotMatch(types, /shell_complete/);
    const core = readFileSync(join(root, "shop/core.py"), "utf8");
    assert.match(core, /return self\.type\.complete_value\(incomplete\)/);
    assert.equal(core.match(/def shell_complete\(/g)?.length, 2, core);
    assert.deepEqual(pyright(root), []);
  });

  it("renames a function across modules, package re-exports and `module.attr` uses", async () => {
    const root = fixture("py");
    const plan = await planRename({ root, target: targetAt(root, "shop/models.py", "python", "def load_products", "load_products"), newName: "read_products" });
    assert.equal(plan.engine, "pyright");
    assert.ok(plan.locations.every((l) => l.evidence === "language_server" && l.old_text === "load_products" && l.new_text === "read_products"));
    const files = applyLocations(root, plan.locations, true);
    assert.deepEqual([...files.keys()].sort(), ["app.py", "shop/__init__.py", "shop/models.py", "shop/views.py"]);
    assert.match(files.get("shop/views.py") ?? "", /for p in models\.read_products\(rows\)/);
    assert.match(files.get("app.py") ?? "", /^from shop import Product, read_products$/m);
    // pyright knows `__all__` lists exports: the string is renamed too
    assert.match(files.get("shop/__init__.py") ?? "", /__all__ = \["Product", "read_products"\]/);
  });

  it("renames a class and a method; pyright's diagnostics stay clean", async () => {
    const root = fixture("py");
    const cls = await planRename({ root, target: targetAt(root, "shop/models.py", "python", "class Product", "Product"), newName: "Item" });
    applyLocations(root, cls.locations, true);
    const meth = await planRename({ root, target: targetAt(root, "shop/models.py", "python", "def price_label", "price_label"), newName: "label" });
    const files = applyLocations(root, meth.locations, true);
    assert.match(files.get("app.py") ?? "", /Item\("x", 1\)\.label\(\)/);
    assert.match(readFileSync(join(root, "shop/views.py"), "utf8"), /first: models\.Item = products\[0\]/);
    assert.deepEqual(pyright(root), []);
  });

  it("sees an overlay (an earlier batch step's bytes) instead of the disk", async () => {
    const root = fixture("py");
    const views = readFileSync(join(root, "shop/views.py"), "utf8") + "\n\ndef render_cheapest(rows: list[tuple[str, int]]) -> str:\n    return cheapest(load_products(rows)).price_label()\n";
    const overlays = new Map([["shop/views.py", new Uint8Array(Buffer.from(views))]]);
    const plan = await planRename({ root, target: targetAt(root, "shop/models.py", "python", "def cheapest", "cheapest"), newName: "lowest", overlays });
    const files = applyLocations(root, plan.locations, false, overlays);
    assert.match(files.get("shop/views.py") ?? "", /return lowest\(load_products\(rows\)\)\.price_label\(\)/);
    assert.match(files.get("shop/views.py") ?? "", /best = lowest\(products\)/);
  });

  it("keeps pyright warm when asked (daemon) and sees files changed on disk since", async () => {
    const root = fixture("py");
    setLanguageServerReuse(true);
    try {
      const first = await planRename({ root, target: targetAt(root, "shop/models.py", "python", "def cheapest", "cheapest"), newName: "lowest" });
      assert.equal(first.timing?.warm, false);
      applyLocations(root, first.locations, true);
      // another tool writes a new module that uses the renamed function
      writeFileSync(join(root, "report.py"), "from shop.models import lowest, load_products\n\nprint(lowest(load_products([])))\n");
      const second = await planRename({ root, target: targetAt(root, "shop/models.py", "python", "def lowest", "lowest"), newName: "cheapest_one" });
      assert.equal(second.timing?.warm, true);
      assert.deepEqual(second.locations.filter((l) => l.file === "report.py").length, 2);
      assert.ok(second.locations.some((l) => l.file === "shop/views.py"));
    } finally {
      setLanguageServerReuse(false);
      await disposeLanguageServers();
    }
  });

  it("renames uses outside pyright's configured include (tests/), but not a same-named function nor another project's files", async () => {
    const root = fixture("py-include");
    const plan = await planRename({ root, target: targetAt(root, "pkg/helpers.py", "python", "def make_link", "make_link"), newName: "link_to" });
    const where = plan.locations.map((l) => `${l.file}:${l.byte_start}`);
    const tests = readFileSync(join(root, "tests/test_links.py"), "utf8");
    const uses = [...tests.matchAll(/make_link/g)].map((m) => Buffer.byteLength(tests.slice(0, m.index)));
    // the import, pkg.make_link and the call; the two mentions in the comment have no definition
    assert.deepEqual(
      where.filter((w) => w.startsWith("tests/")),
      [uses[0], uses[3], uses[4]].map((b) => `tests/test_links.py:${b}`),
    );
    assert.ok(!where.some((w) => w.startsWith("examples/")), "examples/app is a project of its own: left alone");
    assert.deepEqual([...new Set(plan.locations.map((l) => l.file))], ["pkg/__init__.py", "pkg/helpers.py", "tests/test_links.py"]);
    assert.ok(plan.diagnostics.some((d) => d.code === "SPLICE_W213" && /did not reach 1 file/.test(d.message)), JSON.stringify(plan.diagnostics));
  });

  it("a checker error that was there before and names the renamed function is not 'introduced' (click's Context.invoke: pyright's `No overloads for \"invoke\"`)", async () => {
    const root = fixture("py");
    // pyright: Argument of type "Literal['abc']" cannot be assigned to parameter "xs" ... in function "lowest_of"
    writeFileSync(join(root, "shop/prices.py"), 'def lowest_of(xs: list[int]) -> int:\n    return min(xs)\n\n\nprint(lowest_of("abc"))\n');
    const r = await runTool("splice", ["rename", "--file", "shop/prices.py", "--symbol", "lowest_of", "--to", "cheapest_of", "--root", root], { cwd: root });
    const out = r.json as { status: string; message: string; result?: { pre_existing_count: number; introduced: unknown[] } };
    assert.equal(out.status, "ok", JSON.stringify(out).slice(0, 800));
    assert.equal(readFileSync(join(root, "shop/prices.py"), "utf8"), 'def cheapest_of(xs: list[int]) -> int:\n    return min(xs)\n\n\nprint(cheapest_of("abc"))\n');
    assert.ok((out.result?.pre_existing_count ?? 0) >= 1, "the error is reported as there before");
    assert.deepEqual(out.result?.introduced, []);
  });

  it("renames a method declared with @overload by its name: the overloads and the implementation are one binding (click's Context.invoke matched 3 symbols)", async () => {
    const root = fixture("py");
    const before = [
      "import typing as t",
      "",
      "",
      "class Context:",
      "    @t.overload",
      "    def invoke(self, cb: int) -> int: ...",
      "",
      "    @t.overload",
      "    def invoke(self, cb: str) -> str: ...",
      "",
      "    def invoke(self, cb: t.Any) -> t.Any:",
      "        return cb",
      "",
      "",
      "def run(ctx: Context) -> int:",
      "    return ctx.invoke(1)",
      "",
    ].join("\n");
    writeFileSync(join(root, "shop/ctx.py"), before);
    const r = await runTool("splice", ["rename", "--file", "shop/ctx.py", "--symbol", "Context.invoke", "--to", "call_command", "--root", root], { cwd: root });
    const out = r.json as { status: string };
    assert.equal(out.status, "ok", JSON.stringify(out).slice(0, 800));
    assert.equal(readFileSync(join(root, "shop/ctx.py"), "utf8"), before.replaceAll("invoke", "call_command"));
    // A name that is two bindings (a module function and a method) still asks which.
    writeFileSync(join(root, "shop/twice.py"), "def size() -> int:\n    return 1\n\n\nclass Box:\n    def size(self) -> int:\n        return 2\n");
    const two = await runTool("splice", ["rename", "--file", "shop/twice.py", "--symbol", "size", "--to", "count", "--root", root], { cwd: root });
    assert.match(JSON.stringify(two.json), /SPLICE_E101/);
  });

  it("refuses a name that another binding already holds, naming it", async () => {
    const root = fixture("py");
    const target = targetAt(root, "shop/models.py", "python", "def load_products", "load_products");
    await assert.rejects(planRename({ root, target, newName: "cheapest" }), (e) => isToolError(e, "SPLICE_E202", /shop\/models\.py:18/));
    // a method renamed to an attribute of its class
    const meth = targetAt(root, "shop/models.py", "python", "def price_label", "price_label");
    await assert.rejects(planRename({ root, target: meth, newName: "name" }), (e) => isToolError(e, "SPLICE_E202", /shop\/models\.py:7/));
    await assert.rejects(planRename({ root, target, newName: "lambda" }), (e) => isToolError(e, "SPLICE_E201"));
  });
});

describe("splice rename: Go through gopls", () => {
  it("renames an exported function across packages", async () => {
    const root = fixture("go");
    const plan = await planRename({ root, target: targetAt(root, "store/store.go", "go", "func NewStore", "NewStore"), newName: "OpenStore" });
    assert.equal(plan.engine, "gopls");
    const files = applyLocations(root, plan.locations, true);
    assert.match(files.get("main.go") ?? "", /s := store\.OpenStore\(\)/);
    const r = spawnSync("go", ["build", "./..."], { cwd: root, encoding: "utf8", env: { ...process.env, GOFLAGS: "-mod=mod" } });
    assert.equal(r.status, 0, r.stderr);
  });

  it("passes gopls' own conflict refusal on as a clash", async () => {
    const root = fixture("go");
    const add = targetAt(root, "store/store.go", "go", ") Add(", "Add");
    await assert.rejects(planRename({ root, target: add, newName: "Count" }), (e) => isToolError(e, "SPLICE_E202", /conflict/));
  });

  it("a method that satisfies an interface: gopls' refusal says how to rename it with the interface's (apply-files), not to give another name span", async () => {
    const root = fixture("go");
    writeFileSync(join(root, "store", "namer.go"), 'package store\n\ntype Namer interface {\n\tName() string\n}\n\ntype A struct{}\n\nfunc (A) Name() string { return "a" }\n\nvar _ Namer = A{}\n');
    const impl = targetAt(root, "store/namer.go", "go", ") Name(", "Name");
    await assert.rejects(planRename({ root, target: impl, newName: "Label" }), (e) => {
      if (!isToolError(e, "SPLICE_E205", /no longer assignable to interface Namer/)) return false;
      const remediation = (e as { remediation?: string }).remediation ?? "";
      return /renamed together/.test(remediation) && remediation.includes("splice apply-files --glob '**/*.go' --regex --find '\\bName\\b'");
    });
  });

  it("a module whose dependency is not on the machine: the refusal names the missing module, not the symbol", async () => {
    const root = fixture("go");
    writeFileSync(join(root, "go.mod"), "module example.com/inventory\n\ngo 1.19\n\nrequire example.com/absent v1.2.3\n");
    writeFileSync(join(root, "store", "extra.go"), 'package store\n\nimport _ "example.com/absent"\n');
    await assert.rejects(
      planRename({ root, target: targetAt(root, "store/store.go", "go", "func NewStore", "NewStore"), newName: "OpenStore" }),
      (e) => isToolError(e, "SPLICE_E206", /cannot load the package of store\/store\.go: .*example\.com\/absent/),
    );
  });
});

describe("splice rename: Go whose go.mod asks for a newer go than the one on PATH", () => {
  it("the refusal says the toolchain is too old, not to download the modules (echo's `go 1.25.0` under go1.19, where 'go mod download' fails the same way)", async () => {
    const root = fixture("go");
    // A go line no toolchain reads as older than itself, whatever this machine's go is.
    writeFileSync(join(root, "go.mod"), "module example.com/inventory\n\ngo 1.999.0\n");
    const probe = spawnSync("go", ["list", "."], { cwd: root, encoding: "utf8", env: { ...process.env, GOTOOLCHAIN: "local", GOFLAGS: "-mod=mod" } });
    assert.notEqual(probe.status, 0, "this go reads go 1.999.0; the case cannot be made here");
    let err: unknown;
    await planRename({ root, target: targetAt(root, "store/store.go", "go", "func NewStore", "NewStore"), newName: "OpenStore" }).catch((e: unknown) => (err = e));
    assert.ok(isToolError(err, "SPLICE_E206", /cannot load the package of store\/store\.go: .*(invalid go version|requires go >=)/));
    const remediation = (err as { remediation?: string }).remediation ?? "";
    assert.match(remediation, /^The go on PATH \(go\d[^)]*\) is older than the module's go\.mod asks for/);
    assert.doesNotMatch(remediation, /go mod download/);
  });
});

describe("splice rename: Go whose go.mod line this go reads but does not reach", () => {
  it("the refusal names the toolchain, not only the module it could not download (urfave/cli's `go 1.22` under go1.19: its std `slices` looked up among the modules, testify 'module lookup disabled')", async () => {
    const root = fixture("go");
    // go1.19 reads `go 1.99` and fails on the download; go 1.21 and later refuse the line.
    writeFileSync(join(root, "go.mod"), "module example.com/inventory\n\ngo 1.99\n\nrequire example.com/absent v1.2.3\n");
    writeFileSync(join(root, "store", "extra.go"), 'package store\n\nimport _ "example.com/absent"\n');
    let err: unknown;
    await planRename({ root, target: targetAt(root, "store/store.go", "go", "func NewStore", "NewStore"), newName: "OpenStore" }).catch((e: unknown) => (err = e));
    assert.ok(isToolError(err, "SPLICE_E206", /cannot load the package of store\/store\.go: /), String(err));
    const remediation = (err as { remediation?: string }).remediation ?? "";
    assert.match(remediation, /^The go on PATH \(go\d[^)]*\) is older than the module's go\.mod asks for/);
    assert.doesNotMatch(remediation, /go mod download/);
  });
  it("goModNewerThan compares the go line with the toolchain's version, component by component", () => {
    const root = tempDir("go-newer-");
    const at = (line: string): string => {
      writeFileSync(join(root, "go.mod"), `module example.com/m\n\n${line}\n`);
      return root;
    };
    assert.equal(goModNewerThan(at("go 1.22"), "go1.19.8"), "1.22");
    assert.equal(goModNewerThan(at("go 1.19.9"), "go1.19.8"), "1.19.9");
    assert.equal(goModNewerThan(at("go 1.19"), "go1.19.8"), undefined);
    assert.equal(goModNewerThan(at("go 1.2"), "go1.19"), undefined);
    assert.equal(goModNewerThan(at("go 1.22 // minimum"), "go1.21.0"), "1.22");
    assert.equal(goModNewerThan(at("go 1.22"), undefined), undefined);
    rmSync(root, { recursive: true, force: true });
  });
});

describe("splice rename: C through clangd", () => {
  const withCompileCommands = (): string => {
    const root = fixture("c");
    const entries = ["ring.c", "main.c"].map((f) => ({ directory: root, file: join(root, "src", f), arguments: ["cc", "-Iinclude", "-c", join("src", f)] }));
    writeFileSync(join(root, "compile_commands.json"), JSON.stringify(entries));
    return root;
  };

  it("renames a function declared in a header across translation units (compile_commands.json)", async () => {
    const root = withCompileCommands();
    const plan = await planRename({ root, target: targetAt(root, "include/ring.h", "c", "int ring_push", "ring_push"), newName: "ring_put" });
    assert.equal(plan.engine, "clangd");
    const files = applyLocations(root, plan.locations, true);
    assert.deepEqual([...files.keys()].sort(), ["include/ring.h", "src/main.c", "src/ring.c"]);
    assert.equal((files.get("src/main.c") ?? "").match(/ring_put\(&r, '[ab]'\)/g)?.length, 2);
    const r = spawnSync("gcc", ["-Iinclude", "-fsyntax-only", "src/ring.c", "src/main.c"], { cwd: root, encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
  });

  it("linker files that name the function (jansson's jansson.def, a version script) are left as they are, and a warning names them", async () => {
    const root = withCompileCommands();
    writeFileSync(join(root, "src/ring.def"), "LIBRARY ring\nEXPORTS\n    ring_push\n    ring_pushes\n");
    writeFileSync(join(root, "ring.map"), "RING_1.0 {\n  global:\n    ring_push;\n  local: *;\n};\n");
    // Neither a source map (JSON) nor a file that only holds a longer name is one.
    writeFileSync(join(root, "app.js.map"), '{"version":3,"names":["ring_push"],"mappings":""}\n');
    writeFileSync(join(root, "other.ver"), "{ global: ring_pushes; };\n");
    const plan = await planRename({ root, target: targetAt(root, "include/ring.h", "c", "int ring_push", "ring_push"), newName: "ring_put" });
    assert.deepEqual([...applyLocations(root, plan.locations, true).keys()].sort(), ["include/ring.h", "src/main.c", "src/ring.c"]);
    const w = plan.diagnostics.find((d) => d.code === "SPLICE_W217");
    assert.ok(w, JSON.stringify(plan.diagnostics));
    assert.equal(w.level, "warning");
    assert.match(w.message, /^2 linker file\(s\) name 'ring_push' and were left as they are \(no rename engine reads them\): ring\.map, src\/ring\.def\./);
    assert.match(readFileSync(join(root, "src/ring.def"), "utf8"), /^ {4}ring_push$/m);
  });

  it("without compile_commands.json (sources and headers side by side, as hiredis): uses in other translation units are renamed too", async () => {
    const root = fixture("go"); // any private directory; its files are replaced
    for (const f of ["go.mod", "main.go"]) rmSync(join(root, f));
    rmSync(join(root, "store"), { recursive: true });
    writeFileSync(join(root, "ring.h"), "#ifndef RING_H\n#define RING_H\nint ring_push(int *r, int v);\n#endif\n");
    writeFileSync(join(root, "ring.c"), '#include "ring.h"\n\nint ring_push(int *r, int v) {\n  *r = v;\n  return 0;\n}\n\n#if defined(RING_TEST_MAIN)\nint main(void) {\n  int r;\n  return ring_push(&r, 3);\n}\n#endif\n');
    writeFileSync(join(root, "queue.h"), '#include "ring.h"\n');
    writeFileSync(join(root, "main.c"), '#include "queue.h"\n\nint main(void) {\n  int r = 0;\n  ring_push(&r, 1);\n  return ring_push(&r, 2);\n}\n');
    // The CLI puts the engine's warning in the envelope's diagnostics, where an agent reads.
    const cli = await runTool("splice", ["rename", "--dry-run", "--file", "ring.c", "--symbol", "ring_push", "--to", "ring_put"], { cwd: root });
    assert.equal(cli.code, 0, cli.stdout);
    assert.ok(((cli.json as { diagnostics?: { code: string; message: string }[] }).diagnostics ?? []).some((d) => d.code === "SPLICE_W213" && /ring\.c:11\./.test(d.message)), cli.stdout);
    const plan = await planRename({ root, target: targetAt(root, "ring.c", "c", "int ring_push", "ring_push"), newName: "ring_put" });
    assert.equal(plan.engine, "clangd");
    const files = applyLocations(root, plan.locations, true);
    assert.deepEqual([...files.keys()].sort(), ["main.c", "ring.c", "ring.h"]);
    const r = spawnSync("gcc", ["-Werror=implicit-function-declaration", "ring.c", "main.c", "-o", join(root, "a.out")], { cwd: root, encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    // The call in the #if branch clangd does not compile is not renamed, and the plan says where it is.
    assert.match(files.get("ring.c") ?? "", /return ring_push\(&r, 3\);/);
    const left = plan.diagnostics.find((d) => d.code === "SPLICE_W213" && d.level === "warning" && /left unchanged/.test(d.message));
    assert.ok(left, JSON.stringify(plan.diagnostics));
    assert.match(left.message, /1 use\(s\) of 'ring_push' in code were left unchanged: ring\.c:11\./);
  });

  it("a reserved name clangd does not index is refused with the way to rename it in its own file", async () => {
    const root = fixture("go");
    for (const f of ["go.mod", "main.go"]) rmSync(join(root, f));
    rmSync(join(root, "store"), { recursive: true });
    writeFileSync(join(root, "read.c"), "static int __reader_fail(int *r) {\n  *r = -1;\n  return 0;\n}\n\nint reader_feed(int *r) {\n  return __reader_fail(r);\n}\n");
    await assert.rejects(planRename({ root, target: targetAt(root, "read.c", "c", "static int __reader_fail", "__reader_fail"), newName: "reader_fail" }), (e) =>
      isToolError(e, "SPLICE_E205", /refuses to rename '__reader_fail'/) && /splice apply-files --glob 'read\.c' --regex --find '\\b__reader_fail\\b'/.test((e as { remediation?: string }).remediation ?? ""),
    );
  });

  it("a virtual method clangd before 16 will not rename is refused naming why and the way around it (spdlog's logger::flush_)", async (t) => {
    const major = Number(/clangd version (\d+)/.exec(spawnSync("clangd", ["--version"], { encoding: "utf8" }).stdout ?? "")?.[1] ?? "0");
    if (major === 0 || major >= 16) {
      t.skip(`clangd ${major || "absent"} renames virtual methods`);
      return;
    }
    const root = fixture("go");
    for (const f of ["go.mod", "main.go"]) rmSync(join(root, f));
    rmSync(join(root, "store"), { recursive: true });
    writeFileSync(
      join(root, "logger.cpp"),
      "class logger {\npublic:\n    virtual ~logger() = default;\n    void flush() { flush_(); }\n\nprotected:\n    virtual void flush_() {}\n};\n\nclass async_logger : public logger {\nprotected:\n    void flush_() override {}\n};\n",
    );
    await assert.rejects(planRename({ root, target: targetAt(root, "logger.cpp", "cpp", "virtual void flush_", "flush_"), newName: "flush_sinks_" }), (e) => {
      const err = e as { message: string; remediation?: string };
      return (
        isToolError(e, "SPLICE_E205", /refuses to rename 'flush_'.*clangd before version 16 renames no virtual method/) &&
        /clangd 16 or later/.test(err.remediation ?? "") &&
        !/name span/.test(err.remediation ?? "")
      );
    });
  });

  it("a macro, which no clangd renames, is refused without the virtual-method hint, with the apply-files way around it (cJSON's cJSON_ArrayForEach)", async (t) => {
    if (spawnSync("clangd", ["--version"]).status !== 0) {
      t.skip("no clangd");
      return;
    }
    const root = fixture("go");
    for (const f of ["go.mod", "main.go"]) rmSync(join(root, f));
    rmSync(join(root, "store"), { recursive: true });
    writeFileSync(join(root, "list.h"), "struct item { struct item *next; };\n#define list_for_each(el, head) for (el = (head); el != 0; el = el->next)\nint list_len(struct item *head);\n");
    writeFileSync(join(root, "list.c"), '#include "list.h"\n\nint list_len(struct item *head) {\n    struct item *el;\n    int n = 0;\n    list_for_each(el, head) n++;\n    return n;\n}\n');
    await assert.rejects(planRename({ root, target: { ...targetAt(root, "list.h", "c", "#define list_for_each", "list_for_each"), kind: "Macro" }, newName: "list_each" }), (e) => {
      const err = e as { message: string; remediation?: string };
      return (
        isToolError(e, "SPLICE_E205", /refuses to rename 'list_for_each': .* \(clangd renames no macro, in any version\)$/) &&
        !/virtual/.test(err.message + (err.remediation ?? "")) &&
        /^Rename the macro and its uses in one change: splice apply-files --glob '\*\*\/\*\.\{c,h,cc,cpp,hpp\}' --regex --find '\\blist_for_each\\b' --replace NEW_NAME/.test(err.remediation ?? "")
      );
    });
  });

  it("a file that is not UTF-8 among the locations is refused (E006), nothing written: clangd's positions after its first bad byte were off", async () => {
    const root = withCompileCommands();
    const main = join(root, "src/main.c");
    const before = readFileSync(main);
    // A Latin-1 comment on a line before the calls (hiredis.c with `café` in Latin-1).
    const latin1 = Buffer.concat([Buffer.from("/* caf"), Buffer.from([0xe9, 0xe9, 0xe9]), Buffer.from(" */\n"), before]);
    writeFileSync(main, latin1);
    const cli = await runTool("splice", ["rename", "--file", "src/ring.c", "--symbol", "ring_push", "--to", "ring_put"], { cwd: root });
    assert.equal((cli.json as { error?: { code: string } }).error?.code, "SPLICE_E006", cli.stdout);
    assert.match((cli.json as { message: string }).message, /src\/main\.c is not valid UTF-8/);
    assert.deepEqual(readFileSync(main), latin1);
    assert.doesNotMatch(readFileSync(join(root, "src/ring.c"), "utf8"), /ring_put/);
  });

  it("a new name that only a comment or a string mentions is no clash (clangd answered go-to-definition for hiredis's `/* Buffer cursor */`)", async () => {
    const root = fixture("go");
    for (const f of ["go.mod", "main.go"]) rmSync(join(root, f));
    rmSync(join(root, "store"), { recursive: true });
    writeFileSync(join(root, "read.h"), "typedef struct reader {\n    char *buf; /* Read buffer */\n    unsigned long pos; /* Buffer cursor */\n} reader;\n");
    writeFileSync(join(root, "read.c"), '#include "read.h"\n\nstatic const char *msg = "cursor";\n\nunsigned long seek(reader *r) {\n    r->pos = 0;\n    return r->pos;\n}\n');
    const r = await runTool("splice", ["rename", "--file", "read.h", "--symbol", "reader.pos", "--to", "cursor"], { cwd: root });
    assert.equal(r.code, 0, r.stdout);
    assert.match(readFileSync(join(root, "read.c"), "utf8"), /r->cursor = 0;\n {4}return r->cursor;/);
    assert.match(readFileSync(join(root, "read.h"), "utf8"), /unsigned long cursor; \/\* Buffer cursor \*\//);
  });

  it("refuses a rename onto another function's name", async () => {
    const root = withCompileCommands();
    const drain = targetAt(root, "src/main.c", "c", "static int drain", "drain");
    await assert.rejects(planRename({ root, target: drain, newName: "ring_init" }), (e) => isToolError(e, "SPLICE_E202", /src\/ring\.c:3|include\/ring\.h:11/));
  });
});

describe("splice rename: fallback on magellan's index (Java, and Rust without rust-analyzer)", () => {
  const indexed = async (name: string): Promise<string> => {
    const root = fixture(name);
    await indexTree({ root, dbPath: join(root, ".magellan", "code.db") });
    return root;
  };
  const INVOICE = "src/main/java/com/acme/billing/Invoice.java";

  it("Java overloads: renaming one renames the calls of its argument count only, and javac accepts the result", async () => {
    // Before calls were told apart by argument count, both calls were the first put's: the
    // rename of the second changed its definition alone, and javac refused the caller.
    const root = tempDir("splice-overloads-");
    writeTree(root, {
      "src/main/java/acme/Box.java": "package acme;\n\npublic class Box {\n  public void put(Object value) {}\n\n  public void put(Object value, int times) {}\n}\n",
      "src/main/java/acme/User.java": 'package acme;\n\npublic class User {\n  void run(Box box) {\n    box.put("x");\n    box.put("x", 2);\n  }\n}\n',
    });
    await indexTree({ root, dbPath: join(root, ".magellan", "code.db") });
    const target = targetAt(root, "src/main/java/acme/Box.java", "java", "public void put(Object value, int times)", "put");
    const plan = await planRename({ root, target, newName: "putTimes", allowHeuristic: true });
    applyLocations(root, plan.locations, true);
    assert.match(readFileSync(join(root, "src/main/java/acme/Box.java"), "utf8"), /void put\(Object value\) \{\}\n\n {2}public void putTimes\(Object value, int times\)/);
    assert.match(readFileSync(join(root, "src/main/java/acme/User.java"), "utf8"), /box\.put\("x"\);\n {4}box\.putTimes\("x", 2\);/);
    const r = spawnSync("javac", ["-d", join(root, "out"), ...["Box", "User"].map((f) => join(root, "src/main/java/acme", `${f}.java`))], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
  });

  it("Java: an interface method is renamed with its implementations, and javac checks the files together", async () => {
    // Renamed alone, every `@Override` stopped compiling; and each changed file was compiled
    // against the others as on disk, so even the whole rename was refused (Use.java's `drain()`
    // against the old Sink, ObjectAdapter's against the old Adapter).
    const root = tempDir("splice-hierarchy-");
    made.push(root);
    writeTree(root, {
      "src/main/java/acme/Sink.java": "package acme;\n\npublic interface Sink {\n  void flush();\n}\n",
      "src/main/java/acme/Adapter.java": "package acme;\n\npublic abstract class Adapter implements Sink {\n  public void flush(int times) {}\n}\n",
      "src/main/java/acme/ObjectAdapter.java": "package acme;\n\npublic final class ObjectAdapter extends Adapter {\n  @Override\n  public void flush() {}\n}\n",
      "src/main/java/acme/Use.java":
        "package acme;\n\nclass Use {\n  private final Sink sink = new ObjectAdapter();\n\n  void go() {\n    sink.flush();\n    new ObjectAdapter().flush(2);\n  }\n}\n",
    });
    await indexTree({ root, dbPath: join(root, ".magellan", "code.db") });
    const r = await runTool("splice", ["rename", "--file", "src/main/java/acme/Sink.java", "--symbol", "flush", "--to", "drain", "--allow-heuristic", "--require-checker"], { cwd: root });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const out = r.json as { status: string; result: { validation: string } };
    assert.equal(out.status, "ok");
    assert.equal(out.result.validation, "validated");
    const read = (f: string): string => readFileSync(join(root, "src/main/java/acme", f), "utf8");
    assert.match(read("Sink.java"), /void drain\(\);/);
    assert.match(read("ObjectAdapter.java"), /public void drain\(\) \{\}/);
    // Adapter's flush(int) is another method, and so is the call that passes it an argument.
    assert.match(read("Adapter.java"), /public void flush\(int times\)/);
    assert.match(read("Use.java"), /sink\.drain\(\);\n {4}new ObjectAdapter\(\)\.flush\(2\);/);
    // A change that breaks the implementation is still refused: the interface alone.
    const alone = await runTool("splice", ["edit", "--file", "src/main/java/acme/Sink.java", "--old", "void drain();", "--new", "void close();", "--require-checker"], { cwd: root });
    assert.notEqual(alone.code, 0);
    assert.match(alone.stdout, /ObjectAdapter/);
    assert.match(read("Sink.java"), /void drain\(\);/);
  });

  it("labels every location with its evidence and refuses name-only ones without allowHeuristic", async () => {
    const root = await indexed("java");
    const target = targetAt(root, INVOICE, "java", "long total()", "total");
    await assert.rejects(planRename({ root, target, newName: "grandTotal" }), (e) => isToolError(e, "SPLICE_E203", /Report\.java:9/));
    const plan = await planRename({ root, target, newName: "grandTotal", allowHeuristic: true });
    assert.equal(plan.engine, "magellan-index");
    assert.ok(plan.diagnostics.some((d) => d.code === "SPLICE_W212" && /java/.test(d.message)));
    const byEvidence = (ev: string): string[] => plan.locations.filter((l) => l.evidence === ev).map((l) => l.file.split("/").pop() ?? "");
    assert.deepEqual(byEvidence("exact"), ["Invoice.java"]);
    // InvoicePrinter's `invoice.total()`: a parameter of its package's Invoice, as sure as an import;
    // so is Report's `InvoicePrinter.sample().total()`, sample() being declared to return an Invoice.
    assert.deepEqual(byEvidence("imported"), ["InvoicePrinter.java", "Report.java"]);
    assert.deepEqual(byEvidence("heuristic"), ["Report.java"]);
    applyLocations(root, plan.locations, true);
    const r = spawnSync("javac", ["-d", join(root, "out"), ...["app/Main", "billing/Invoice", "billing/InvoicePrinter", "billing/Report"].map((f) => join(root, "src/main/java/com/acme", `${f}.java`))], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
  });

  it("labels a call through an import or the package as imported, and includes unresolved same-named calls as heuristic", async () => {
    const root = await indexed("java");
    const target = targetAt(root, "src/main/java/com/acme/billing/InvoicePrinter.java", "java", "static Invoice sample", "sample");
    // Legacy.java calls a library's `Printers.sample()`, which the index cannot tie to anything:
    // it comes in as name-only evidence, so the rename needs allowHeuristic.
    await assert.rejects(planRename({ root, target, newName: "example" }), (e) => isToolError(e, "SPLICE_E203", /Legacy\.java:9/));
    const plan = await planRename({ root, target, newName: "example", allowHeuristic: true });
    assert.deepEqual(plan.locations.map((l) => `${l.file.split("/").pop()}:${l.evidence}`), ["Main.java:imported", "InvoicePrinter.java:exact", "Report.java:imported", "Legacy.java:heuristic"]);
  });

  it("refuses a clash with a sibling member, a top-level Java type, and keywords", async () => {
    const root = await indexed("java");
    const add = targetAt(root, INVOICE, "java", "void addLine", "addLine");
    await assert.rejects(planRename({ root, target: add, newName: "total", allowHeuristic: true }), (e) => isToolError(e, "SPLICE_E202", /Invoice\.java:14/));
    const cls = targetAt(root, INVOICE, "java", "class Invoice", "Invoice");
    await assert.rejects(planRename({ root, target: cls, newName: "Bill", allowHeuristic: true }), (e) => isToolError(e, "SPLICE_E205"));
    await assert.rejects(planRename({ root, target: add, newName: "class" }), (e) => isToolError(e, "SPLICE_E201"));
    // A method may share its name with a field (Java keeps them apart): `lines()` beside `lines`
    const plan = await planRename({ root, target: targetAt(root, INVOICE, "java", "long total()", "total"), newName: "lines", allowHeuristic: true });
    const files = applyLocations(root, plan.locations, true);
    assert.match(files.get(INVOICE) ?? "", /public long lines\(\) \{/);
    const r = spawnSync("javac", ["-d", join(root, "out"), ...["app/Main", "billing/Invoice", "billing/InvoicePrinter", "billing/Report"].map((f) => join(root, "src/main/java/com/acme", `${f}.java`))], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
  });

  it("falls back for Rust when rust-analyzer does not run, saying so", async () => {
    const root = await indexed("rust");
    const plan = await planRename({ root, target: targetAt(root, "src/area.rs", "rust", "fn circle_area", "circle_area"), newName: "disc_area", allowHeuristic: true });
    assert.equal(plan.engine, "magellan-index");
    assert.ok(plan.diagnostics.some((d) => d.code === "SPLICE_W212" && /rust-analyzer/.test(d.message)), JSON.stringify(plan.diagnostics));
    const files = applyLocations(root, plan.locations, true);
    assert.match(files.get("src/lib.rs") ?? "", /use area::disc_area;/);
    assert.match(files.get("src/lib.rs") ?? "", /map\(\|r\| disc_area\(\*r\)\)/);
    const fresh = await indexed("rust");
    await assert.rejects(planRename({ root: fresh, target: targetAt(fresh, "src/area.rs", "rust", "fn circle_area", "circle_area"), newName: "square_area" }), (e) => isToolError(e, "SPLICE_E202", /src\/area\.rs:6/));
    await assert.rejects(planRename({ root: fresh, target: targetAt(fresh, "src/area.rs", "rust", "fn circle_area", "circle_area"), newName: "impl" }), (e) => isToolError(e, "SPLICE_E201"));
  });

  it("says why there is no index instead of guessing", async () => {
    const root = fixture("java");
    const target = targetAt(root, INVOICE, "java", "void addLine", "addLine");
    await assert.rejects(planRename({ root, target, newName: "append" }), (e) => isToolError(e, "SPLICE_E204", /magellan index/));
  });
});
