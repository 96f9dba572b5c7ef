/**
 * Go packages as `go build` sees them, in urfave/cli's shape (test/fixtures/magellan/go-module-vn):
 * a module path ending in a major version (`github.com/acme/cli/v3`, package `cli`), an aliased
 * import (`c "github.com/acme/cli/v3"`), test files that declare same-named methods, and the blank
 * identifier. Before: `cli.Command` and `c.Command` were unresolved (the import was taken to bind
 * `v3`, and the alias was not stored); completion.go's `cmd.Root().Writer.Write` went to
 * completion_test.go's `mockWriter.Write`; `(&Command{}).Run` listed the test type's `Run`; and
 * `var _ = ...` was a symbol `_` that every `_, err :=` wrote to (real tree-sitter, real SQLite).
 */
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import { copyFixture, graphOf, mg } from "./support.js";

/** file:line name resolution target-file for the references named in `names`. */
function rows(db: string, names: string[]): string[] {
  const d = new Database(db, { readonly: true });
  try {
    return (
      d
        .prepare(
          `SELECT f.path || ':' || r.start_line || ' ' || r.name || ' ' || r.resolution || ' ' || coalesce(t.path || ' ' || s.display_fqn, '-')
           FROM refs r JOIN files f ON f.id = r.file_id
           LEFT JOIN symbols s ON s.symbol_id = r.target_symbol_id LEFT JOIN files t ON t.id = s.file_id
           WHERE r.name IN (${names.map(() => "?").join(",")}) AND f.path != 'command.go' ORDER BY f.path, r.byte_start`,
        )
        .pluck()
        .all(...names) as string[]
    );
  } finally {
    d.close();
  }
}

describe("Go: packages as go build sees them", () => {
  const root = copyFixture("go-module-vn");
  const db = join(root, ".magellan", "code.db");

  it("imports bind the package name (not /v3), aliases bind theirs, and non-test files see no test file's symbols", async () => {
    assert.equal((await mg(root, ["index"])).r.code, 0);
    assert.deepEqual(rows(db, ["Command", "Run", "Write"]), [
      "completion.go:5 Command heuristic command.go Command",
      "completion.go:6 Write unresolved -",
      "completion.go:11 Command heuristic command.go Command",
      "completion.go:11 Run heuristic command.go Command.Run",
      "completion_test.go:10 Command heuristic command.go Command",
      "examples/hello/main.go:10 Command imported command.go Command",
      // `cmd := &c.Command{...}`: cmd's type is the literal's (receiver_type).
      "examples/hello/main.go:11 Run imported command.go Command.Run",
      "examples_test.go:8 Command imported command.go Command",
      "examples_test.go:9 Run imported command.go Command.Run",
      // (A test file sees the test files of its package: both Run methods stay candidates of a
      // receiver whose type is not a name's.)
      "flag_test.go:10 Run ambiguous -",
    ]);
    const d = new Database(db, { readonly: true });
    try {
      assert.equal(d.prepare("SELECT count(*) FROM symbols WHERE name = '_'").pluck().get(), 0, "the blank identifier declares nothing");
      assert.equal(d.prepare("SELECT count(*) FROM refs WHERE name = '_'").pluck().get(), 0, "nor is it referenced");
    } finally {
      d.close();
    }
  });

  it("an incremental run that adds and removes a test file's Write ends with a rebuild's graph", async () => {
    const extra = join(root, "writer_test.go");
    for (const step of ["add", "remove"]) {
      if (step === "add") writeFileSync(extra, "package cli\n\ntype fileWriter struct{}\n\nfunc (fw fileWriter) Write(p []byte) (int, error) { return 0, nil }\n");
      else rmSync(extra);
      const inc = await mg(root, ["index"]);
      assert.equal(inc.env.data.mode, "incremental", step);
      const fresh = join(root, `fresh-${step}.db`);
      assert.equal((await mg(root, ["index", "--rebuild", "--db", fresh])).r.code, 0);
      assert.deepEqual(graphOf(db), graphOf(fresh), `after the ${step}`);
    }
  });

  it("an incremental run after a package clause changes (and back) ends with a rebuild's graph: importers' `cli.Command` follows the name", async () => {
    // The package's name is its first file's clause (command.go); no symbol or import says it,
    // and the incremental run used to keep examples_test.go's edge to the renamed package.
    const file = join(root, "command.go");
    const text = readFileSync(file, "utf8");
    const command = (): string | undefined => rows(db, ["Command"]).find((r) => r.startsWith("examples_test.go:"));
    assert.equal((await mg(root, ["index"])).r.code, 0);
    assert.match(command() ?? "", / command\.go /, "bound through `cli` before");
    for (const [step, now] of [
      ["renamed", text.replace(/^package cli$/m, "package cmdline")],
      ["back", text],
    ] as const) {
      writeFileSync(file, now);
      const inc = await mg(root, ["index"]);
      assert.equal(inc.env.data.mode, "incremental", step);
      const fresh = join(root, `fresh-clause-${step}.db`);
      assert.equal((await mg(root, ["index", "--rebuild", "--db", fresh])).r.code, 0);
      assert.deepEqual(graphOf(db), graphOf(fresh), `after the clause was ${step}`);
      if (step === "renamed") assert.doesNotMatch(command() ?? "", / command\.go /, "`cli` names no package of the repository now");
      else assert.match(command() ?? "", / command\.go /);
    }
  });
});
