/**
 * Patching a symbol with its own text leaves the file byte-identical, on files shaped like real
 * projects' (hiredis's and cxxopts's macros, flask's docstrings and multi-line signatures,
 * commander's `this.parseArg = (…) => {…};`): a `#define` keeps the line break that ends it, a
 * Python definition keeps its indentation whatever its last line or its strings hold, a
 * statement's `;` stays when the new text has none.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import type { MutationRequest } from "../../src/contract/tools/splice.js";
import { extractFacts } from "../../src/lang/extract.js";
import { languageForPath } from "../../src/lang/registry.js";
import { definitionExtent, lineStart } from "../../src/tools/splice/layout.js";
import type { SpliceOutcome } from "../../src/tools/splice/run.js";
import { project, read, resultOf, splice } from "./helpers.js";

const lineOf = (text: string, i: number): number => text.slice(0, i).split("\n").length;

/** A patch of the symbol defined on `line`: by name, or by the id the ambiguity error lists for that line. */
async function patchAt(dir: string, file: string, name: string, line: number, content: string, extra: Partial<MutationRequest> = {}): Promise<SpliceOutcome> {
  const o = await splice(dir, { command: "patch", file, symbol: name, content, ...extra } as MutationRequest);
  if (o.status !== "error" || o.error?.code !== "SPLICE_E101") return o;
  const id = new RegExp(`^\\s*([0-9a-f]{16}) .*${file.replace(/[.]/g, "\\.")}:${line}$`, "m").exec(o.message)?.[1];
  assert.ok(id, `no candidate of ${name} on line ${line}: ${o.message}`);
  return splice(dir, { command: "patch", file, symbol_id: id, content, ...extra } as MutationRequest);
}

test("patch: a C #define keeps the line break after it (the next line, a blank line, the #else branch's next #define)", async () => {
  const dir = project("c-macros");
  const c = read(dir, "reader.c");
  const o = await splice(dir, { command: "patch", file: "reader.c", symbol: "READER_LLSTR_SIZE", content: "#define READER_LLSTR_SIZE 32" });
  assert.equal(o.status, "ok", o.message);
  assert.equal(resultOf(o).validation, "validated");
  assert.equal(read(dir, "reader.c"), c.replace("#define READER_LLSTR_SIZE 21\n", "#define READER_LLSTR_SIZE 32\n"));

  const h = read(dir, "reader.h");
  const o2 = await splice(dir, { command: "patch", file: "reader.h", symbol: "READER_MAX_BUF", content: "#define READER_MAX_BUF (1024*32)" });
  assert.equal(o2.status, "ok", o2.message);
  assert.equal(read(dir, "reader.h"), h.replace("(1024*16)\n\n", "(1024*32)\n\n"));

  // In the #else branch gcc never compiles: nothing but the bytes can tell.
  const h2 = read(dir, "reader.h");
  const o3 = await patchAt(dir, "reader.h", "READER_DIAGNOSTIC_PUSH", lineOf(h2, h2.indexOf("#define READER_DIAGNOSTIC_PUSH\n")), "#define READER_DIAGNOSTIC_PUSH /* none */");
  assert.equal(o3.status, "ok", o3.message);
  assert.equal(read(dir, "reader.h"), h2.replace("#define READER_DIAGNOSTIC_PUSH\n#define", "#define READER_DIAGNOSTIC_PUSH /* none */\n#define"));
});

test("patch: a Python function whose last line is a call's ')' and a method with a multi-line signature, given their own text, change nothing", async () => {
  const dir = project("python-docs");
  const text = read(dir, "messages.py");
  // flash at column 0, whole lines (its last line is `    )`).
  const from = text.indexOf("def flash(");
  const flash = text.slice(from, text.indexOf("\n\n\nclass Collector"));
  const o = await splice(dir, { command: "patch", file: "messages.py", symbol: "flash", content: `${flash}\n` });
  assert.equal(o.status, "ok", o.message);
  assert.equal(resultOf(o).files.length, 0, resultOf(o).diff ?? JSON.stringify(resultOf(o).files));
  // __exit__ as its span: first line cut at `def`, the signature's `)` at the class's indentation.
  const exit = text.slice(text.indexOf("def __exit__("), text.indexOf("return True") + "return True".length);
  const o2 = await splice(dir, { command: "patch", file: "messages.py", symbol: "Collector.__exit__", content: exit });
  assert.equal(o2.status, "ok", o2.message);
  assert.equal(resultOf(o2).files.length, 0, resultOf(o2).diff ?? JSON.stringify(resultOf(o2).files));
  // A docstring's lines at column 0 are the string's bytes: a new body keeps them as they are.
  const usage = text.slice(text.indexOf("    @functools.cached_property"), text.indexOf('return "collect"') + 'return "collect"'.length);
  const o3 = await splice(dir, { command: "patch", file: "messages.py", symbol: "Collector.usage", content: usage.replace('"collect"', '"collect errors"') });
  assert.equal(o3.status, "ok", o3.message);
  assert.equal(read(dir, "messages.py"), text.replace('return "collect"', 'return "collect errors"'));
});

test("patch: `this.parseArg = (…) => {…};` given without its `;` keeps the `;`", async () => {
  const dir = project("js-commonjs");
  const text = read(dir, "option.js");
  const from = text.indexOf("this.parseArg = (arg");
  const span = text.slice(from, text.indexOf("};\n    return this;", from) + 1);
  const o = await splice(dir, { command: "patch", file: "option.js", symbol: "parseArg", kind: "function", content: span });
  assert.equal(o.status, "ok", o.message);
  assert.equal(resultOf(o).files.length, 0, resultOf(o).diff ?? JSON.stringify(resultOf(o).files));
  const o2 = await splice(dir, { command: "patch", file: "option.js", symbol: "parseArg", kind: "function", content: span.replace("return arg;", "return arg.trim();") });
  assert.equal(o2.status, "ok", o2.message);
  assert.equal(read(dir, "option.js"), text.replace("      return arg;\n    };", "      return arg.trim();\n    };"));
});

const FILES: [string, string][] = [
  ["c-macros", "reader.h"],
  ["c-macros", "reader.c"],
  ["python-docs", "messages.py"],
  ["js-commonjs", "option.js"],
];

for (const [fixture, file] of FILES) {
  test(`own text: every symbol of ${fixture}/${file} (macros, variables and fields too) patched with its span or its whole lines leaves the file byte-identical`, async () => {
    const dir = project(fixture);
    const bytes = readFileSync(join(dir, file));
    const text = bytes.toString("utf8");
    const language = languageForPath(file)?.id;
    assert.ok(language);
    const symbols = extractFacts(language, bytes).symbols;
    let checked = 0;
    const changed: string[] = [];
    for (const s of symbols) {
      const span = text.slice(s.range.byte_start, s.range.byte_end);
      const ext = definitionExtent(language, text, s.range.byte_start, s.range.byte_end);
      const lines = text.slice(/^[ \t]*$/.test(text.slice(lineStart(text, ext.full), ext.full)) ? lineStart(text, ext.full) : ext.full, ext.end);
      for (const content of [span, lines]) {
        const o = await patchAt(dir, file, [...s.scope, s.name].join("."), lineOf(text, s.range.byte_start), content, { dry_run: true });
        if (o.status === "error" && o.error?.code === "SPLICE_E100") continue; // a local the graph does not list
        assert.equal(o.status, "ok", `${s.name}: ${o.message}`);
        if (resultOf(o).files.length > 0) changed.push(`${s.kind} ${s.name} line ${lineOf(text, s.range.byte_start)}:\n${resultOf(o).diff}`);
        checked++;
      }
    }
    assert.deepEqual(changed, [], `patch with its own text changed the file for ${changed.length} of ${checked}`);
    assert.ok(checked >= 8, `${file}: only ${checked} round trips ran`);
    assert.equal(readFileSync(join(dir, file)).toString("utf8"), text);
  });
}
