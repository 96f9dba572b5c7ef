/**
 * Faults found by reading magellan's answers on repositories it had not seen (gin-gonic/gin,
 * pallets/jinja, google/googletest, apache/commons-io) against their code. Each fixture under
 * test/fixtures/magellan/sweep22 copies the shape of the real case in a few short files (real
 * tree-sitter, real SQLite).
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { assertIncrementalMatchesRebuild, indexed, refLines, withIndex } from "./support.js";

describe("sweep 22: gin, jinja, googletest and commons-io shapes", () => {
  it("Go: a member that a field's repository type neither declares nor inherits is its library base's, not a same-named method of the package (gin's c.Writer.Header())", async () => {
    const root = await indexed("sweep22", ["gin"]);
    // ResponseWriter embeds http.ResponseWriter: Header and WriteHeader are net/http's. Header was
    // a `heuristic` call of Context.Header, the package's only other Header.
    assert.deepEqual(refLines(root, "f.path = 'gin/context.go' AND r.qualifier = 'c.Writer'"), [
      "gin/context.go:27 c.Writer.Header unresolved -",
      "gin/context.go:30 c.Writer.Header unresolved -",
      "gin/context.go:35 c.Writer.WriteHeader unresolved -",
      "gin/context.go:40 c.Writer.Flush unresolved -",
      "gin/context.go:46 c.Writer.Header unresolved -",
    ]);
  });

  it("Go: a path of fields from a typed parameter (c *Context; c.writermem.Header()) follows the fields' types (gin's handleHTTPRequest)", async () => {
    const root = await indexed("sweep22", ["gin"]);
    const where = "f.path = 'gin/gin.go' AND r.qualifier LIKE 'c.%' AND r.qualifier NOT LIKE '%()'";
    // Before: Header and Status went to Context's methods by name (heuristic), WriteHeaderNow
    // was ambiguous with the interface's declaration.
    assert.deepEqual(refLines(root, where), [
      "gin/gin.go:16 c.writermem.Header unresolved -",
      "gin/gin.go:20 c.writermem.WriteHeaderNow heuristic gin.responseWriter.WriteHeaderNow",
      "gin/gin.go:24 c.writermem.status heuristic gin.responseWriter.status",
      "gin/gin.go:25 c.writermem.Status heuristic gin.responseWriter.Status",
      "gin/gin.go:26 c.Writer.Header unresolved -",
      "gin/gin.go:29 c.writermem.WriteHeaderNow heuristic gin.responseWriter.WriteHeaderNow",
    ]);
    // What the path reaches depends on the field's type, declared in another file: an
    // incremental run that changes it still ends with what a rebuild holds.
    const ctxFile = join(root, "gin", "context.go");
    writeFileSync(ctxFile, readFileSync(ctxFile, "utf8").replace("writermem responseWriter", "writermem http.ResponseWriter"));
    await assertIncrementalMatchesRebuild(root, "field-type");
    assert.deepEqual(refLines(root, "f.path = 'gin/gin.go' AND r.qualifier = 'c.writermem'").map((l) => l.split(" ").slice(1).join(" ")), [
      "c.writermem.Header unresolved -",
      "c.writermem.WriteHeaderNow unresolved -",
      "c.writermem.status unresolved -",
      "c.writermem.Status unresolved -",
      "c.writermem.WriteHeaderNow unresolved -",
    ]);
  });

  it("Go: a local made by a library package's function (w := httptest.NewRecorder()) is of a library type, not the test file's own writer (gin's render tests)", async () => {
    const root = await indexed("sweep22", ["gin"]);
    // w.Header() was a heuristic call of the test file's errorWriter.Header, req.Header (a field
    // of *http.Request) a heuristic reference to the same method; ew is an errorWriter.
    assert.deepEqual(refLines(root, "f.path = 'gin/render/render_test.go' AND r.qualifier IN ('w', 'w.Body', 'req', 'req.Header', 'ew') AND r.start_line > 30"), [
      "gin/render/render_test.go:37 w.Header unresolved -",
      "gin/render/render_test.go:40 w.Body unresolved -",
      "gin/render/render_test.go:40 w.Body.String unresolved -",
      "gin/render/render_test.go:41 w.Body unresolved -",
      "gin/render/render_test.go:41 w.Body.String unresolved -",
      "gin/render/render_test.go:50 req.Header unresolved -",
      "gin/render/render_test.go:50 req.Header.Set unresolved -",
      "gin/render/render_test.go:53 ew.Header exact gin/render.errorWriter.Header",
    ]);
  });

  it("Python: a builtin dict, list or deque method on a value of unknown type is no guess of the repository's same-named method (jinja's variables.setdefault, todo.extend)", async () => {
    const root = await indexed("sweep22", ["jinja"]);
    // Each was a heuristic call: of LRUCache.items on **attributes, LRUCache.setdefault on
    // **variables, Environment.extend on a deque. They list their candidates now; so does
    // env.cache.get, an LRUCache the guess had right (the field is assigned, not annotated).
    const where = "f.path = 'jinja/src/jinja2/environment.py' AND r.kind = 'call' AND r.name IN ('items', 'setdefault', 'extend', 'get')";
    assert.deepEqual(refLines(root, where), [
      "jinja/src/jinja2/environment.py:13 attributes.items ambiguous -",
      "jinja/src/jinja2/environment.py:27 variables.setdefault ambiguous -",
      "jinja/src/jinja2/environment.py:41 todo.extend ambiguous -",
      "jinja/src/jinja2/environment.py:45 env.cache.get ambiguous -",
    ]);
    const candidates = withIndex(root, (d) =>
      d
        .prepare("SELECT r.name, s.display_fqn FROM refs r JOIN files f ON f.id = r.file_id, json_each(r.candidates) j JOIN symbols s ON s.symbol_id = j.value WHERE " + where + " ORDER BY r.byte_start")
        .all()
        .map((row) => Object.values(row as Record<string, string>).join(" ")),
    );
    assert.deepEqual(candidates, [
      "items jinja2.utils.LRUCache.items",
      "setdefault jinja2.utils.LRUCache.setdefault",
      "extend jinja2.environment.Environment.extend",
      "get jinja2.utils.LRUCache.get",
    ]);
  });

  it("C++: a local declared of a typedef or using alias is of the aliased type; one of std::map's is a library's (googletest's ThreadLocalValues& values; values.end())", async () => {
    const root = await indexed("sweep22", ["googletest"]);
    // end() was a heuristic call of NativeArray::end, the repository's only end(); through an
    // alias of a repository class the class's member is still found.
    // (A smart pointer's alias is its pointee's: holder->Expired().)
    assert.deepEqual(refLines(root, "f.path = 'googletest/src/gtest-port.cc' AND r.kind = 'call' AND r.name IN ('end', 'failed', 'Expired')").map((l) => l.replace(/googletest\/(include\/gtest\/internal\/gtest-internal|src\/gtest-port)::/, "")), [
      "googletest/src/gtest-port.cc:18 holder.Expired exact testing::internal::ThreadLocalValueHolderBase::Expired",
      "googletest/src/gtest-port.cc:26 thread_to_thread_locals.end unresolved -",
      "googletest/src/gtest-port.cc:31 thread_local_values.end unresolved -",
      "googletest/src/gtest-port.cc:39 result.failed heuristic testing::internal::TestPartResult::failed",
      "googletest/src/gtest-port.cc:43 last.failed heuristic testing::internal::TestPartResult::failed",
    ]);
    // The alias's file alone changes what it names: an incremental run still ends with what a
    // rebuild holds.
    const port = join(root, "googletest", "src", "gtest-port.cc");
    writeFileSync(port, readFileSync(port, "utf8").replace(/typedef std::map<const void\*, [^;]*> ThreadLocalValues;/, "using ThreadLocalValues = NativeArray<int>;"));
    await assertIncrementalMatchesRebuild(root, "alias-type");
    assert.deepEqual(refLines(root, "f.path = 'googletest/src/gtest-port.cc' AND r.qualifier = 'thread_local_values' AND r.name = 'end'").map((l) => l.replace(/googletest\/include\/gtest\/internal\/gtest-internal::/, "")), [
      "googletest/src/gtest-port.cc:31 thread_local_values.end heuristic testing::internal::NativeArray::end",
    ]);
  });

  it("Java: a try-with-resources resource, a catch parameter and an instanceof pattern are typed locals (commons-io's scratch.array() in IOUtils.copyLarge)", async () => {
    const root = await indexed("sweep22", ["commons-io"]);
    // Each was ambiguous among the repository's same-named methods (ScratchBytes.array and
    // ScratchChars.array; XmlStreamReader's and XmlStreamReaderException's getBomEncoding).
    assert.deepEqual(refLines(root, "r.name IN ('array', 'getBomEncoding') AND r.qualifier IS NOT NULL").map((l) => l.replace(/^commons-io\/src\/(main|test)\/java\/org\/apache\/commons\/io\//, "")), [
      "IOUtils.java:61 scratch.array exact org.apache.commons.io.IOUtils.ScratchBytes.array",
      "IOUtils.java:77 scratch.array exact org.apache.commons.io.IOUtils.ScratchChars.array",
      "input/XmlStreamReaderUtilitiesTest.java:14 reader.getBomEncoding imported org.apache.commons.io.input.XmlStreamReader.getBomEncoding",
      "input/XmlStreamReaderUtilitiesTest.java:16 e.getBomEncoding imported org.apache.commons.io.input.XmlStreamReaderException.getBomEncoding",
      "input/XmlStreamReaderUtilitiesTest.java:24 xml.getBomEncoding imported org.apache.commons.io.input.XmlStreamReader.getBomEncoding",
    ]);
  });
});
