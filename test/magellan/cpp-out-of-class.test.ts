/**
 * C++ member functions defined outside their class, in spdlog's shape
 * (test/fixtures/magellan/cpp-out-of-class: `logger.h` declares, `logger-inl.h` defines inside
 * `namespace spdlog {`, with `SPDLOG_TRY { ... }` in a body). Before:
 * - `SPDLOG_TRY {` derailed tree-sitter: the namespace ended early, and the last `flush_()` of
 *   `sink_it_` had the namespace `spdlog` as its caller;
 * - a definition inside a namespace block was the namespace's (parent `spdlog`), so
 *   `logger::err_handler_` was a namespace-level function to every bare `err_handler_`, and
 *   spdlog's `registry::initialize_logger` read it instead of its own field;
 * - in such a body, the class's own fields (`level_`, `err_handler_`) were unresolved;
 * - a call that sees the member's declaration and its out-of-class definition is no ambiguity.
 * (real tree-sitter, real SQLite; the fixture compiles with g++ -fsyntax-only.)
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { copyFixture, mg, withIndex } from "./support.js";

it("C++: a member function defined outside its class sees the class's members, and its calls reach the definition", async () => {
  const root = copyFixture("cpp-out-of-class");
  assert.equal((await mg(root, ["index"])).r.code, 0);
  withIndex(root, (d) => {
    const rows = d
      .prepare(
        `SELECT f.path || ':' || r.start_line || ' ' || r.name || ' ' || r.resolution || ' ' || coalesce(t.path || ' ' || s.kind || ' ' || s.parent, '-') || ' caller=' || coalesce(c.name, '-')
         FROM refs r JOIN files f ON f.id = r.file_id
         LEFT JOIN symbols s ON s.symbol_id = r.target_symbol_id LEFT JOIN files t ON t.id = s.file_id
         LEFT JOIN symbols c ON c.symbol_id = r.caller_symbol_id
         WHERE r.name IN ('flush_', 'err_handler_', 'level_', 'instance', 'sink_it_') AND f.path NOT IN ('logger.h', 'registry.h')
         ORDER BY f.path, r.byte_start`,
      )
      .pluck()
      .all();
    assert.deepEqual(rows, [
      "logger-inl.h:6 sink_it_ exact logger-inl.h Method logger caller=log",
      "logger-inl.h:8 flush_ exact logger-inl.h Method logger caller=flush",
      "logger-inl.h:11 level_ heuristic logger.h Field logger caller=sink_it_",
      "logger-inl.h:12 flush_ exact logger-inl.h Method logger caller=sink_it_",
      "logger-inl.h:15 flush_ exact logger-inl.h Method logger caller=sink_it_",
      "registry-inl.h:13 err_handler_ heuristic registry.h Field registry caller=initialize_logger",
      "registry-inl.h:14 level_ heuristic registry.h Field registry caller=initialize_logger",
      // One of the two (the declaration every caller includes), not both as ambiguous.
      "spdlog.cpp:4 instance heuristic registry.h Method registry caller=init",
    ]);
    // Defined inside `namespace spdlog {`, logger::flush_ is logger's, as it is written.
    const flush = d.prepare("SELECT s.parent, s.parent_symbol_id, s.display_fqn FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = 'logger-inl.h' AND s.name = 'flush_'").all();
    assert.deepEqual(flush, [{ parent: "logger", parent_symbol_id: null, display_fqn: "logger-inl::spdlog::logger::flush_" }]);
  });
});
