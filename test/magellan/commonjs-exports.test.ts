/**
 * CommonJS: what a module assigns to `module.exports` is what `require` returns. Shaped on
 * express: lib/express.js `exports = module.exports = createApplication`, index.js
 * `module.exports = require('./lib/express')`, and the tests' `var express = require('..')`
 * then `express()` (651 calls), which were `exact` calls of the test file's own `var`, while
 * `callers --name createApplication` said "nobody" at coverage 1.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { tempDir, writeTree } from "../support/run.js";
import { assertIncrementalMatchesRebuild, mg, refLines } from "./support.js";

it("a call of a required module's binding reaches what its module.exports is (through a re-exporting index.js too), never the local var", async () => {
  const root = writeTree(tempDir("magellan-cjs-exports-"), {
    "lib/app.js": "'use strict';\n\nexports = module.exports = createApplication;\n\nfunction createApplication() {\n  return { listen: function () {} };\n}\n",
    "lib/util.js": "module.exports = function slugify(s) {\n  return s.toLowerCase();\n};\n",
    "lib/anon.js": "module.exports = function (req) {\n  return req;\n};\n",
    "lib/plain.js": "exports.helper = function () {\n  return 1;\n};\n",
    "index.js": "module.exports = require('./lib/app');\n",
    "test/app.test.js":
      "var express = require('..');\nvar create = require('../lib/app');\nvar slugify = require('../lib/util');\nvar anon = require('../lib/anon');\nvar plain = require('../lib/plain');\nvar mime = require('mime');\n\nvar app = express();\nvar app2 = create();\nslugify('A');\nanon({});\nplain();\nmime('x');\n",
  });
  assert.equal((await mg(root, ["index"])).r.code, 0);
  assert.deepEqual(refLines(root, "r.kind = 'call' AND f.path = 'test/app.test.js' AND r.name <> 'require'"), [
    "test/app.test.js:8 .express imported lib/app.createApplication",
    "test/app.test.js:9 .create imported lib/app.createApplication",
    "test/app.test.js:10 .slugify imported lib/util.slugify",
    "test/app.test.js:11 .anon imported lib/anon.exports",
    // A module with no module.exports of its own, and a library's: a gap, not the local var.
    "test/app.test.js:12 .plain unresolved -",
    "test/app.test.js:13 .mime unresolved -",
  ]);
  const { r, env } = await mg(root, ["callers", "--name", "createApplication"]);
  assert.equal(r.code, 0, r.stdout);
  assert.deepEqual(
    (env.data.references ?? []).map((x) => `${x.span.file_path}:${x.span.start_line} ${x.referenced_symbol}`),
    ["test/app.test.js:8 express", "test/app.test.js:9 create"],
  );
  // The exported function changes: the calls follow it, as a rebuild finds them.
  writeFileSync(join(root, "lib/app.js"), "'use strict';\n\nmodule.exports = makeApp;\n\nfunction makeApp() {\n  return {};\n}\n");
  await assertIncrementalMatchesRebuild(root, "exports-renamed");
  assert.deepEqual(refLines(root, "r.kind = 'call' AND f.path = 'test/app.test.js' AND r.name IN ('express', 'create')"), [
    "test/app.test.js:8 .express imported lib/app.makeApp",
    "test/app.test.js:9 .create imported lib/app.makeApp",
  ]);
});
