/**
 * The JavaScript family's dependencies found from the text and node types (the indexing path)
 * equal what the reference query (src/lang/queries/javascript/deps.scm) finds.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { extractDeps } from "../../src/lang/deps.js";
import { parse } from "../../src/lang/registry.js";
import { REPO_ROOT } from "../support/run.js";

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : /\.(m|c)?(t|j)sx?$/.test(n) ? [p] : [];
  });
}

describe("impact dependencies of TypeScript/JavaScript", () => {
  it("the text path equals the reference query on the fixtures and on tricky shapes", () => {
    const sources = files(join(REPO_ROOT, "test", "fixtures", "impact")).map((f) => readFileSync(f, "utf8"));
    sources.push(
      'const { fs } = await import("./fs-utils");\nconst x = require(/* c */ "./a");\nconst m = await import(/* webpackIgnore: true */ filePath);\nimport(/* a */ /* b */ "./two-comments");\n// require("./commented")\nconst s = "require(\'./in-string\')";\nobj.require("./method");\nimport r = require("./r");\nconst B = `./b`;\nrequire(B + "/c");\n',
    );
    // Statements found from their keywords: comments after the keyword, import() and import.meta
    // beside them, and error trees (a MISSING name, statements inside and beside ERROR nodes).
    sources.push(
      'export /* c */ { a } from "./commented";\nimport /* c */ b from "./commented2";\nexport\n*\nfrom "./nl";\nexport type { T } from "./types";\nexport * as ns from "./ns";\n',
      'const x = import.meta.url;\nconst y = import ("./dyn");\nlet z: typeof import("./tq");\nfunction f() {\n  import y from "./in-fn";\n  export { z } from "./in-fn2";\n}\n',
      '* from "./star";\nimport a from "./a";\n',
      'export default from "./weird";\nexport = require("./eq");\nimport r = require("./r");\n',
      'if (a) { export { q } from "./broken-if" }}}\n@dec export class A {}\nexport {a} from "./one"; export {b} from "./two"\nimport {c} from\n',
      // Statements inside an ambient module and a namespace; the words in a comment and a string.
      'declare module "m" {\n  export * from "./amb";\n  import z = require("./amb2");\n}\nnamespace N { export { a } from "./ns"; }\n/* export * from "./no" */\nconst s = "import a from \'./str\'";\n',
      // Statements with an error inside, still with their source.
      'import { a b } from "./x";\nfunction g() {\n  import a, from "./z";\n  export {a as} from "./t";\n}\nimport {a as} from "./u";\nexport * from "./w" extra;\n',
    );
    for (const text of sources) {
      const tree = parse("typescript", text);
      const key = (xs: unknown[]): string[] => xs.map((x) => JSON.stringify(x)).sort();
      assert.deepEqual(key(extractDeps("typescript", tree, text)), key(extractDeps("typescript", tree)), text.slice(0, 200));
    }
  });

  it("a comment before import()'s or require()'s argument is not the argument (kysely's `import(/* webpackIgnore: true */ filePath)`)", () => {
    // The comment was the dependency's text: impact-diagnostics listed `/* webpackIgnore: true */`
    // as an unresolved import, and `require(/* c */ "./a")` had no specifier.
    const text = 'const m = await import(/* webpackIgnore: true */ filePath);\nconst a = require(/* c */ "./a");\n';
    const tree = parse("typescript", text);
    for (const deps of [extractDeps("typescript", tree, text), extractDeps("typescript", tree)]) {
      assert.deepEqual(
        deps.map((d) => [d.text, d.spec ?? null]),
        [
          ["filePath", null],
          ['"./a"', "./a"],
        ],
      );
    }
  });

  it("a 1 MB bundle with one require among thousands of calls gives that one dependency", () => {
    let text = 'var r=require("./x");';
    for (let i = 0; text.length < 1_000_000; i++) text += `function f${i}(x){return g(x)+h(x,k(${i}))+a.b.c(x)}`;
    const tree = parse("javascript", text);
    const deps = extractDeps("javascript", tree, text);
    assert.deepEqual(deps.map((d) => d.spec), ["./x"]);
  });
});

describe("dynamic specifiers as patterns", () => {
  it("a template literal and a Python f-string keep their static parts, constants folded in, and `*` for the rest", () => {
    const ts = 'const B = "./p";\nimport(`${B}/x/${y}.js`);\nrequire(`./lit`);\n';
    const tsDeps = extractDeps("typescript", parse("typescript", ts), ts);
    assert.deepEqual(
      tsDeps.map((d) => [d.kind, d.spec ?? null, d.pattern ?? null]),
      [
        ["import", null, "./p/x/*.js"],
        ["require", "./lit", null],
      ],
    );
    const py = 'import importlib\nBASE = "acme.plugins"\nm = importlib.import_module(f"{BASE}.x_{name}")\nn = importlib.import_module(f\'\'\'a.{BASE}.b\'\'\')\n';
    const pyDeps = extractDeps("python", parse("python", py), py).filter((d) => d.form === "dynamic");
    assert.deepEqual(
      pyDeps.map((d) => [d.spec ?? null, d.pattern ?? null]),
      [
        [null, "acme.plugins.x_*"],
        ["a.acme.plugins.b", null],
      ],
    );
  });
});
