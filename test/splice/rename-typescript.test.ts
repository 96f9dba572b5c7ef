import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import ts from "typescript";
import { planRename } from "../../src/tools/splice/rename/index.js";
import { isToolError } from "./rename-errors.js";
import { applyLocations, copyFixture, targetAt } from "./rename-helpers.js";
import { tempDir } from "../support/run.js";

const made: string[] = [];
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});
const fixture = (): string => {
  const d = copyFixture("ts");
  made.push(d);
  return d;
};

const libs = new Map<string, ts.SourceFile | undefined>();

/** tsc --noEmit over the project, as messages (file:line message). */
function tscErrors(root: string): string[] {
  const cfg = ts.getParsedCommandLineOfConfigFile(join(root, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  assert.ok(cfg);
  const host = ts.createCompilerHost(cfg.options);
  const get = host.getSourceFile.bind(host);
  // The standard library is parsed once for the whole file: it is most of each check's time.
  host.getSourceFile = (f, lv, ...rest) => {
    if (!f.includes("/node_modules/typescript/lib/")) return get(f, lv, ...rest);
    if (!libs.has(f)) libs.set(f, get(f, lv, ...rest));
    return libs.get(f);
  };
  const program = ts.createProgram({ rootNames: cfg.fileNames, options: cfg.options, host });
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`);
}

describe("splice rename: TypeScript language service", () => {
  it("renames an exported function across files: path alias, re-exports, shorthand properties", async () => {
    const root = fixture();
    const target = targetAt(root, "src/util/format.ts", "typescript", "function formatPrice", "formatPrice");
    const plan = await planRename({ root, target, newName: "renderPrice" });
    assert.match(plan.engine, /^typescript-language-service/);
    assert.ok(plan.locations.every((l) => l.evidence === "language_server" && l.old_text === "formatPrice"));
    const files = applyLocations(root, plan.locations, true);
    // shorthand in an object literal keeps its property name
    assert.match(files.get("src/util/format.ts") ?? "", /export const helpers = \{ formatPrice: renderPrice \};/);
    assert.match(files.get("src/cart.ts") ?? "", /import \{ renderPrice, precision \} from "@util\/format";/);
    assert.match(files.get("src/cart.ts") ?? "", /return \{ formatPrice: renderPrice, cart \};/);
    // the barrel keeps exporting the old public name, so its importers are untouched
    assert.match(files.get("src/util/index.ts") ?? "", /export \{ renderPrice as formatPrice \} from "\.\/format";/);
    assert.equal(files.has("src/checkout.ts"), false);
    // multibyte text before the name: byte offsets, not UTF-16 ones
    assert.match(files.get("src/util/format.ts") ?? "", /export function renderPrice\(cents/);
    assert.deepEqual(tscErrors(root), []);
  });

  it("leaves a use of a barrel's kept public name through a namespace import (zod's `z.prettifyError`)", async () => {
    const root = fixture();
    // the barrel also re-exports the module as a namespace (zod's `export * as core from "../core/index.js"`)
    writeFileSync(join(root, "src/util/index.ts"), 'export * as format from "./format";\nexport { formatPrice } from "./format";\nexport type { PriceOptions } from "./format";\n');
    writeFileSync(join(root, "src/report.ts"), 'import * as util from "./util";\n\nexport const line = util.formatPrice(100);\n');
    const plan = await planRename({ root, target: targetAt(root, "src/util/format.ts", "typescript", "function formatPrice", "formatPrice"), newName: "renderPrice" });
    const files = applyLocations(root, plan.locations, true);
    assert.match(files.get("src/util/index.ts") ?? "", /export \{ renderPrice as formatPrice \} from "\.\/format";/);
    // the language service returned `util.formatPrice` too, which then named no export (TS2339)
    assert.equal(files.has("src/report.ts"), false);
    assert.deepEqual(tscErrors(root), []);
  });

  it("renames the local of `export { a as b }` and keeps the exported name", async () => {
    const root = fixture();
    const plan = await planRename({ root, target: targetAt(root, "src/util/format.ts", "typescript", "const rounding", "rounding"), newName: "digits" });
    const files = applyLocations(root, plan.locations, true);
    assert.match(files.get("src/util/format.ts") ?? "", /const digits = 2;\nexport \{ digits as precision \};/);
    assert.equal(plan.locations.length, 2);
    assert.deepEqual(tscErrors(root), []);
  });

  it("renames an interface through `import type` and `export type` specifiers", async () => {
    const root = fixture();
    const plan = await planRename({ root, target: targetAt(root, "src/util/format.ts", "typescript", "interface PriceOptions", "PriceOptions"), newName: "PricingOptions" });
    const files = applyLocations(root, plan.locations, true);
    assert.match(files.get("src/cart.ts") ?? "", /import type \{ PricingOptions, Cents \}/);
    assert.match(files.get("src/cart.ts") ?? "", /total\(opts: PricingOptions\)/);
    assert.match(files.get("src/util/index.ts") ?? "", /export type \{ PricingOptions as PriceOptions \}/);
    assert.deepEqual(tscErrors(root), []);
  });

  it("renames a class from a use site's definition and sees an overlay from an earlier batch step", async () => {
    const root = fixture();
    const overlay = Buffer.from("import { Cart } from \"./cart\";\nimport { formatPrice } from \"./util\";\n\nconst total = 0;\n\nexport function checkout(cart: Cart): string {\n  const c: Cart = cart;\n  return formatPrice(100) + c.total({ currency: \"EUR\" }) + String(total);\n}\n");
    const overlays = new Map([["src/checkout.ts", new Uint8Array(overlay)]]);
    const plan = await planRename({ root, target: targetAt(root, "src/cart.ts", "typescript", "class Cart", "Cart"), newName: "Basket", overlays });
    const files = applyLocations(root, plan.locations, false, overlays);
    // the overlay's new line (`const c: Cart`) is planned against the overlay's bytes
    assert.match(files.get("src/checkout.ts") ?? "", /const c: Basket = cart;/);
    assert.match(files.get("src/checkout.ts") ?? "", /^import \{ Basket \} from "\.\/cart";/);
    assert.match(files.get("src/cart.ts") ?? "", /summary\(cart: Basket\): \{ formatPrice: \(c: number\) => string; cart: Basket \}/);
  });

  it("refuses keywords and invalid identifiers with their codes", async () => {
    const root = fixture();
    const target = targetAt(root, "src/util/format.ts", "typescript", "function formatPrice", "formatPrice");
    await assert.rejects(planRename({ root, target, newName: "class" }), (e) => isToolError(e, "SPLICE_E201"));
    await assert.rejects(planRename({ root, target, newName: "9lives" }), (e) => isToolError(e, "SPLICE_E200"));
    await assert.rejects(planRename({ root, target, newName: "a-b" }), (e) => isToolError(e, "SPLICE_E200"));
  });

  it("refuses a name already bound where the symbol is used, naming the clash", async () => {
    const root = fixture();
    // another export of the same module
    const fp = targetAt(root, "src/util/format.ts", "typescript", "function formatPrice", "formatPrice");
    await assert.rejects(planRename({ root, target: fp, newName: "helpers" }), (e) => isToolError(e, "SPLICE_E202", /src\/util\/format\.ts:15/));
    // a local in an importing file that the renamed import would be shadowed by
    await assert.rejects(planRename({ root, target: fp, newName: "formatPrice2" }), (e) => isToolError(e, "SPLICE_E202", /src\/cart\.ts:10/));
    // a local renamed to a module-level name it would shadow
    const label = targetAt(root, "src/checkout.ts", "typescript", "const label", "label");
    await assert.rejects(planRename({ root, target: label, newName: "total" }), (e) => isToolError(e, "SPLICE_E202", /src\/checkout\.ts:4/));
    // a member renamed to another member of its class
    const add = targetAt(root, "src/cart.ts", "typescript", "add(price", "add");
    await assert.rejects(planRename({ root, target: add, newName: "total" }), (e) => isToolError(e, "SPLICE_E202", /src\/cart\.ts:9/));
  });

  it("refuses a target span that does not hold the name", async () => {
    const root = fixture();
    const target = { ...targetAt(root, "src/util/format.ts", "typescript", "function formatPrice", "formatPrice"), name: "other" };
    await assert.rejects(planRename({ root, target, newName: "x" }), (e) => isToolError(e, "SPLICE_E207"));
  });
});

describe("splice rename: TypeScript project references", () => {
  it("renames in a referenced project and in the project that references it, from sources", async () => {
    const root = copyFixture("ts-refs");
    made.push(root);
    const plan = await planRename({ root, target: targetAt(root, "packages/core/src/index.ts", "typescript", "function openAccount", "openAccount"), newName: "createAccount" });
    assert.deepEqual(
      plan.locations.map((l) => `${l.file}:${l.new_text}`),
      ["packages/app/src/main.ts:createAccount", "packages/app/src/main.ts:createAccount", "packages/core/src/index.ts:createAccount"],
    );
    assert.ok(plan.diagnostics.some((d) => d.code === "SPLICE_W210" && d.message.includes("packages/app/tsconfig.json")));
  });
});

describe("splice rename: JavaScript through jsconfig.json", () => {
  it("renames an ES module export across files of a JavaScript project", async () => {
    const root = copyFixture("js");
    made.push(root);
    const plan = await planRename({ root, target: targetAt(root, "lib/slug.js", "javascript", "function slugify", "slugify"), newName: "toSlug" });
    const files = applyLocations(root, plan.locations);
    assert.match(files.get("index.js") ?? "", /import \{ toSlug \} from "\.\/lib\/slug\.js";/);
    assert.match(files.get("index.js") ?? "", /titles\.map\(\(t\) => toSlug\(t\)\)/);
    assert.match(files.get("index.js") ?? "", /export default \{ slugify: toSlug \};/);
    assert.ok(!plan.diagnostics.some((d) => d.code === "SPLICE_W211"), "the jsconfig.json was used");
  });
});

describe("splice rename: JavaScript without a jsconfig.json", () => {
  it("renames a CommonJS export's uses in the other files that require it (express's `exports.compileETag`)", async () => {
    const root = tempDir("splice-rename-cjs-");
    mkdirSync(join(root, "lib"));
    mkdirSync(join(root, "test"));
    writeFileSync(join(root, "package.json"), '{ "name": "mini-express", "main": "lib/application.js" }\n');
    writeFileSync(join(root, "lib", "utils.js"), "'use strict';\n\n/**\n * Create an ETag generator function.\n */\n\nexports.compileETag = function(val) {\n  if (typeof val === 'function') return val;\n  return val ? function weak(body) { return 'W/' + body.length; } : undefined;\n};\n");
    writeFileSync(join(root, "lib", "application.js"), "'use strict';\n\nvar compileETag = require('./utils').compileETag;\n\nexports.set = function set(setting, val) {\n  if (setting === 'etag') return compileETag(val);\n  return val;\n};\n");
    writeFileSync(join(root, "test", "utils.js"), "'use strict';\n\nvar assert = require('assert');\nvar utils = require('../lib/utils');\n\ndescribe('utils.compileETag', function () {\n  it('compiles weak', function () {\n    assert.strictEqual(typeof utils.compileETag(true), 'function');\n    assert.strictEqual(utils.compileETag(false), undefined);\n  });\n});\n");
    const plan = await planRename({ root, target: targetAt(root, "lib/utils.js", "javascript", "exports.compileETag", "compileETag"), newName: "compileEntityTag" });
    const files = applyLocations(root, plan.locations);
    assert.match(files.get("lib/application.js") ?? "", /var compileETag = require\('\.\/utils'\)\.compileEntityTag;/);
    assert.match(files.get("lib/application.js") ?? "", /return compileETag\(val\);/, "the local binding keeps its name");
    assert.equal((files.get("test/utils.js")?.match(/utils\.compileEntityTag\(/g) ?? []).length, 2);
    assert.match(files.get("test/utils.js") ?? "", /describe\('utils\.compileETag'/, "a string is not a use");
    assert.ok(plan.diagnostics.some((d) => d.code === "SPLICE_W211" && d.message.includes("2 other script(s)")));
  });
});

describe("splice rename: JavaScript beside a tsconfig.json that does not allow it", () => {
  it("passes over that config, as tsc does, and renames through the other scripts (axios: tsconfig.json for its .d.ts tests, no allowJs)", async () => {
    const root = tempDir("splice-rename-nojs-");
    made.push(root);
    mkdirSync(join(root, "lib", "adapters"), { recursive: true });
    writeFileSync(join(root, "tsconfig.json"), '{ "compilerOptions": { "module": "node16", "strict": true, "noEmit": true } }\n');
    writeFileSync(join(root, "index.d.ts"), "export declare function request(url: string): Promise<unknown>;\n");
    writeFileSync(join(root, "lib", "utils.js"), "export function isSpecCompliantForm(thing) {\n  return !!(thing && typeof thing.append === 'function');\n}\n");
    writeFileSync(join(root, "lib", "adapters", "http.js"), "import { isSpecCompliantForm } from '../utils.js';\n\nexport function send(data) {\n  return isSpecCompliantForm(data) ? 'form' : 'raw';\n}\n");
    const plan = await planRename({ root, target: targetAt(root, "lib/utils.js", "javascript", "function isSpecCompliantForm", "isSpecCompliantForm"), newName: "isSpecForm" });
    const files = applyLocations(root, plan.locations);
    assert.match(files.get("lib/utils.js") ?? "", /^export function isSpecForm\(thing\)/);
    assert.match(files.get("lib/adapters/http.js") ?? "", /import \{ isSpecForm \} from '\.\.\/utils\.js';/);
    assert.match(files.get("lib/adapters/http.js") ?? "", /return isSpecForm\(data\)/);
    assert.ok(plan.diagnostics.some((d) => d.code === "SPLICE_W211" && /that allows JavaScript/.test(d.message)), JSON.stringify(plan.diagnostics));
  });
});

describe("splice rename: what the TypeScript engine's projects do not hold (drizzle-orm, ky)", () => {
  /** drizzle-orm's shape: src/ in tsconfig.json, tests/ in their own tsconfig.json (include ../src), another package importing by package name. */
  const monorepo = (): string => {
    const root = tempDir("splice-rename-unseen-");
    made.push(root);
    mkdirSync(join(root, "orm", "src"), { recursive: true });
    mkdirSync(join(root, "orm", "tests"), { recursive: true });
    mkdirSync(join(root, "kit", "src"), { recursive: true });
    // The root config holds every file (no include), without the package's paths: drizzle's.
    writeFileSync(join(root, "tsconfig.json"), '{ "compilerOptions": { "strict": true, "noEmit": true, "module": "esnext", "moduleResolution": "bundler" }, "exclude": ["**/dist"] }\n');
    writeFileSync(join(root, "orm", "tsconfig.json"), '{ "compilerOptions": { "strict": true, "noEmit": true, "module": "esnext", "moduleResolution": "bundler", "paths": { "~/*": ["./src/*"] } }, "include": ["src"] }\n');
    writeFileSync(join(root, "orm", "tests", "tsconfig.json"), '{ "extends": "../tsconfig.json", "compilerOptions": { "rootDir": ".." }, "include": [".", "../src"] }\n');
    writeFileSync(join(root, "orm", "src", "casing.ts"), "export function toCamelCase(input: string): string {\n  return input.replace(/_(\\w)/g, (_, c: string) => c.toUpperCase());\n}\n\nfunction localHelper(x: string): string {\n  return x;\n}\n\nexport const caseOf = (s: string): string => localHelper(toCamelCase(s));\n");
    writeFileSync(join(root, "orm", "tests", "casing.test.ts"), "import { toCamelCase } from '~/casing';\n\nexport const ok = toCamelCase('drizzle_kit') === 'drizzleKit';\n");
    writeFileSync(join(root, "kit", "src", "introspect.ts"), "import { toCamelCase } from 'orm/casing';\n\nexport const name = (n: string): string => toCamelCase(n);\nexport const localHelper = 1;\n");
    return root;
  };

  it("warns (W217) naming the files that mention an exported name and that no searched project holds", async () => {
    const root = monorepo();
    const plan = await planRename({ root, target: targetAt(root, "orm/src/casing.ts", "typescript", "function toCamelCase", "toCamelCase"), newName: "toCamel" });
    assert.deepEqual([...new Set(plan.locations.map((l) => l.file))], ["orm/src/casing.ts"]);
    const w = plan.diagnostics.find((d) => d.code === "SPLICE_W217");
    assert.ok(w, JSON.stringify(plan.diagnostics));
    assert.equal(w.level, "warning");
    assert.match(w.message, /^2 file\(s\) mention 'toCamelCase' where no project searched \(orm\/tsconfig\.json, tsconfig\.json\) ties it to this symbol \(the file is in none of them, or imports the name from a module that does not resolve there\) and were left as they are: kit\/src\/introspect\.ts, orm\/tests\/casing\.test\.ts\./);
  });

  it("says nothing of other files' mentions of a name no other file can use", async () => {
    const root = monorepo();
    const plan = await planRename({ root, target: targetAt(root, "orm/src/casing.ts", "typescript", "function localHelper", "localHelper"), newName: "helper" });
    assert.equal(plan.diagnostics.some((d) => d.code === "SPLICE_W217"), false, JSON.stringify(plan.diagnostics));
  });

  it("renames a private member (#name) to another private name, and refuses a new name that changes its visibility", async () => {
    const root = tempDir("splice-rename-private-");
    made.push(root);
    mkdirSync(join(root, "source"), { recursive: true });
    writeFileSync(join(root, "tsconfig.json"), '{ "compilerOptions": { "strict": true, "noEmit": true, "target": "es2022" }, "include": ["source"] }\n');
    writeFileSync(join(root, "source", "Ky.ts"), "export class Ky {\n\t#retryCount = 0;\n\n\t#calculateDelay(): number {\n\t\treturn 0.3 * 2 ** this.#retryCount;\n\t}\n\n\tdelay(): number {\n\t\treturn this.#calculateDelay();\n\t}\n}\n");
    const target = targetAt(root, "source/Ky.ts", "typescript", "#calculateDelay(): number", "#calculateDelay");
    const plan = await planRename({ root, target, newName: "#computeDelay" });
    const files = applyLocations(root, plan.locations, true);
    assert.equal(files.get("source/Ky.ts"), "export class Ky {\n\t#retryCount = 0;\n\n\t#computeDelay(): number {\n\t\treturn 0.3 * 2 ** this.#retryCount;\n\t}\n\n\tdelay(): number {\n\t\treturn this.#computeDelay();\n\t}\n}\n");
    assert.deepEqual(tscErrors(root), []);
    await assert.rejects(planRename({ root, target: targetAt(root, "source/Ky.ts", "typescript", "#computeDelay(): number", "#computeDelay"), newName: "computeDelay" }), (e) =>
      isToolError(e, "SPLICE_E200", /^'#computeDelay' is a private member: its new name starts with '#' too, or every use would become a public member 'computeDelay'$/),
    );
    await assert.rejects(planRename({ root, target: targetAt(root, "source/Ky.ts", "typescript", "delay(): number {\n\t\treturn", "delay"), newName: "#delay" }), (e) =>
      isToolError(e, "SPLICE_E200", /^'#delay' is a private name \(#…\) and 'delay' is not private/),
    );
    // A reserved word after '#' is a private name (`#default`), which TypeScript accepts.
    const reserved = await planRename({ root, target: targetAt(root, "source/Ky.ts", "typescript", "#retryCount = 0", "#retryCount"), newName: "#default" });
    assert.match(applyLocations(root, reserved.locations, true).get("source/Ky.ts") ?? "", /\t#default = 0;[\s\S]*this\.#default;/);
    assert.deepEqual(tscErrors(root), []);
  });
});

describe("splice rename: a warm TypeScript service", () => {
  it("sees a file created on disk after it was built", async () => {
    const root = copyFixture("ts");
    made.push(root);
    const target = (): ReturnType<typeof targetAt> => targetAt(root, "src/util/format.ts", "typescript", "function formatPrice", "formatPrice");
    const first = await planRename({ root, target: target(), newName: "renderPrice" });
    writeFileSync(join(root, "src", "receipt.ts"), 'import { formatPrice } from "@util/format";\n\nexport const receipt = formatPrice(120);\n');
    const second = await planRename({ root, target: target(), newName: "renderPrice" });
    assert.equal(second.timing?.warm, true);
    assert.equal(second.locations.length, first.locations.length + 2);
    assert.deepEqual(second.locations.filter((l) => l.file === "src/receipt.ts").length, 2);
  });
});
