/**
 * A `.h` whose code is C++ is checked by g++, not gcc: spdlog's details/fmt_helper.h went to
 * gcc as C, which stopped at `#include <chrono>`, so a rename that left 29 uses behind was
 * written as `unchecked`. The same header through llmfilewrite with `--language auto`.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { runTool, tempDir, writeTree } from "../support/run.js";

const HEADER = "#pragma once\n\n#include <chrono>\n\nnamespace demo {\n\ninline int pad2(int n) {\n    return n < 10 ? n * 10 : n;\n}\n\n}  // namespace demo\n";

it("splice checks a C++ header with g++: a broken patch is rejected, a valid one validated", async () => {
  const root = writeTree(tempDir("splice-cpp-header-"), { "include/fmt_helper.h": HEADER });
  const bad = await runTool("splice", ["patch", "--file", "include/fmt_helper.h", "--symbol", "pad2", "--body", "--content", "return std::chrono::no_such_thing(n);", "--require-checker"], { cwd: root });
  const out = bad.json as { status: string; result?: { validation: string; checkers: { checker: string; language: string }[] } };
  assert.equal(out.status, "error", bad.stdout);
  assert.equal(out.result?.validation, "rejected", bad.stdout);
  assert.equal(out.result?.checkers[0]?.language, "cpp");
  assert.match(bad.stdout, /no_such_thing/);
  const good = await runTool("splice", ["patch", "--file", "include/fmt_helper.h", "--symbol", "pad2", "--body", "--content", "return static_cast<int>(std::chrono::seconds(n).count());", "--require-checker"], { cwd: root });
  assert.equal((good.json as { result?: { validation: string } }).result?.validation, "validated", good.stdout);
});

it("llmfilewrite --language auto checks a C++ header with g++", async () => {
  const root = tempDir("llmfilewrite-cpp-header-");
  const r = await runTool("llmfilewrite", ["--path", "include/helper.h", "--content", HEADER, "--require-checker"], { cwd: root });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.ok(existsSync(join(root, "include/helper.h")));
  assert.match(r.stdout, /g\+\+/);
});

it("without compile_commands.json the checker finds the headers in include/ and src/ (libuv: \"uv.h\", \"uv-common.h\")", async () => {
  const root = writeTree(tempDir("splice-c-include-"), {
    "include/uv.h": "#pragma once\nint uv_run_once(int n);\n",
    "src/uv-common.h": "#pragma once\n#include \"uv.h\"\nstatic inline int uv__twice(int n) { return 2 * n; }\n",
    "src/unix/core.c": '#include "uv-common.h"\n\nint uv_run_once(int n) {\n    return uv__twice(n);\n}\n',
  });
  const bad = await runTool("splice", ["patch", "--file", "src/unix/core.c", "--symbol", "uv_run_once", "--body", "--content", "return uv__thrice(n);", "--require-checker"], { cwd: root });
  const out = bad.json as { result?: { validation: string } };
  assert.equal(out.result?.validation, "rejected", bad.stdout);
  assert.match(bad.stdout, /uv__thrice/);
  const good = await runTool("splice", ["patch", "--file", "src/unix/core.c", "--symbol", "uv_run_once", "--body", "--content", "return uv__twice(n) + 1;", "--require-checker"], { cwd: root });
  assert.equal((good.json as { result?: { validation: string } }).result?.validation, "validated", good.stdout);
});
