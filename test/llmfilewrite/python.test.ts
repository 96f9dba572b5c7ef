import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { runTool } from "../support/run.js";
import { type Envelope, lineOf, listFiles, project, removeProjects } from "./helpers.js";

after(removeProjects);

let root: string;
before(() => {
  root = project("py-project");
});
const lfw = (args: string[], input?: string) => runTool("llmfilewrite", ["--root", root, ...args], { cwd: root, input });

describe("llmfilewrite Python (pyright language server, content opened in memory)", () => {
  it("rejects a pyright type error in the project's import context, leaving no file anywhere", async () => {
    const content = "from pkg.helper import add\n\n\ndef total() -> str:\n    return add(1, 2)\n";
    const before = listFiles(root);
    const r = await lfw(["--path", "pkg/report.py", "--content", content]);
    const env = r.json as Envelope;
    assert.equal(r.code, 1, r.stdout);
    assert.equal(env.status, "rejected");
    assert.match(env.result?.lsp_used ?? "", /^pyright \d/);
    const d = env.result?.diagnostics.find((x) => x.source === "pyright");
    assert.ok(d, r.stdout);
    assert.equal(d.code, "reportReturnType");
    assert.equal(d.start_line, lineOf(content, "return add"));
    assert.equal(Buffer.from(content).subarray(d.byte_start, d.byte_end).toString(), "add(1, 2)");
    // The import of the project's own module resolved: no reportMissingImports.
    assert.ok(!env.result?.diagnostics.some((x) => x.code === "reportMissingImports"), r.stdout);
    assert.deepEqual(listFiles(root), before);
  });

  it("rejects a syntax error, reported by pyright (tree-sitter's report of the same mistake is not counted again)", async () => {
    const content = "def broken(:\n    return 1\n";
    const r = await lfw(["--path", "pkg/broken.py", "--content", content]);
    const env = r.json as Envelope;
    assert.equal(r.code, 1, r.stdout);
    assert.equal(env.status, "rejected");
    const errors = env.result?.diagnostics.filter((x) => x.level === "error") ?? [];
    const sources = new Set(errors.map((x) => x.source));
    assert.deepEqual([...sources], ["pyright"], r.stdout);
    assert.equal(errors[0]?.start_line, 1);
    assert.ok(!existsSync(join(root, "pkg/broken.py")));
  });

  it("approves valid content from stdin and writes exactly those bytes", async () => {
    const content = "from pkg.helper import add\n\nTOTAL: int = add(1, 2)\n";
    const r = await lfw(["--path", "pkg/ok.py"], content);
    const env = r.json as Envelope;
    assert.equal(r.code, 0, r.stdout);
    assert.equal(env.status, "approved");
    assert.deepEqual(env.result?.diagnostics, []);
    assert.equal(readFileSync(join(root, "pkg/ok.py"), "utf8"), content);
  });

  it("refuses --language rust or c for a .py path (E107, usage): the file would be checked by rustc/gcc and never by pyright, the project's checker", async () => {
    const before = listFiles(root);
    const rust = await lfw(["--path", "pkg/rusty.py", "--language", "rust", "--content", "pub fn main() {}\n"]);
    assert.equal(rust.code, 2, rust.stdout);
    const env = rust.json as Envelope;
    assert.equal(env.error?.code, "LLMFILEWRITE_E107");
    assert.match(env.error?.message ?? "", /pkg\/rusty\.py is Python by its extension; --language rust \(Rust\) disagrees/);
    const c = await lfw(["--path", "pkg/cfile.py", "--language", "c", "--content", "int f(void) { return 1; }\n"]);
    assert.equal((c.json as Envelope).error?.code, "LLMFILEWRITE_E107", c.stdout);
    assert.deepEqual(listFiles(root), before);
    // A --language that agrees with the extension, or names one for a path without a known extension, still works.
    const same = await lfw(["--path", "pkg/same.py", "--language", "py", "--dry-run", "--content", "X: int = 1\n"]);
    assert.equal(same.code, 0, same.stdout);
    assert.equal((same.json as Envelope).result?.validation, "validated");
    const bare = await lfw(["--path", "pkg/script", "--language", "python", "--dry-run", "--content", "X: int = 1\n"]);
    assert.equal(bare.code, 0, bare.stdout);
  });
});

describe("llmfilewrite Python: a distribution the project requires but this environment lacks", () => {
  it("is no error of the new file: unchecked with a checker.missing_dependency warning (flask's werkzeug without a virtualenv); an unrequired import is still the file's error", async () => {
    const own = project("py-project");
    const { writeFileSync } = await import("node:fs");
    // Required under another spelling than its import name (PEP 503: case, `-` and `_` alike), with extras.
    writeFileSync(join(own, "pyproject.toml"), '[project]\nname = "demo"\nversion = "0.1"\ndependencies = [\n    "Acme-Widgets[fast]>=2.0",\n]\n');
    const run = (args: string[]) => runTool("llmfilewrite", ["--root", own, ...args], { cwd: own });
    const content = "import acme_widgets\nfrom acme_widgets.core import Widget\n\n\ndef build() -> int:\n    return acme_widgets.size(Widget())\n";
    const r = await run(["--path", "pkg/widgets.py", "--dry-run", "--content", content]);
    const env = r.json as Envelope;
    assert.equal(r.code, 0, r.stdout);
    assert.equal(env.result?.validation, "unchecked");
    const w = env.result?.diagnostics.find((d) => d.code === "checker.missing_dependency");
    assert.ok(w, r.stdout);
    assert.equal(w.start_line, 1);
    assert.match(w.message, /acme_widgets \(required in pyproject\.toml\) is not installed here/);
    assert.ok(!env.result?.diagnostics.some((d) => d.code === "reportMissingImports"), r.stdout);
    const strict = await run(["--path", "pkg/widgets.py", "--require-checker", "--content", content]);
    assert.equal(strict.code, 1, strict.stdout);
    assert.ok(!existsSync(join(own, "pkg/widgets.py")));
    // A package the project does not require is more likely a typo: still the file's error.
    const typo = await run(["--path", "pkg/widgets.py", "--dry-run", "--content", content.replaceAll("acme_widgets", "acme_gadgets")]);
    assert.equal(typo.code, 1, typo.stdout);
    assert.match((typo.json as Envelope).message, /first reportMissingImports .*acme_gadgets/);
  });
});
