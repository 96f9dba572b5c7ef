/**
 * Go: `m.x` inside `func (m *model) ...` is a member of the receiver's type, whatever name the
 * method gives its receiver (glow's bubbletea models each have View, Update and state; cobra's
 * `c.Flags()` in every Command method). Before, these were guessed by name among the package's
 * members (`heuristic`), or left `ambiguous` when several types share the name. A variable that
 * is not the receiver keeps the guess (real tree-sitter, real SQLite).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { it } from "node:test";
import Database from "better-sqlite3";
import { tempDir, writeTree } from "../support/run.js";
import { mg } from "./support.js";

const PAGER = `package ui

type pagerModel struct {
	state int
}

func (m pagerModel) View() string {
	if m.state == 0 {
		return m.helpView()
	}
	return ""
}

func (m pagerModel) helpView() string { return "" }
`;

const STASH = `package ui

type stashModel struct {
	state int
	pager pagerModel
}

func (m *stashModel) View() string {
	m.state = 1
	return m.helpView() + m.pager.View()
}

func (s *stashModel) helpView() string {
	return s.pager.helpView()
}

func render(other stashModel) string {
	return other.helpView()
}

var models []stashModel

func renderAll() {
	for _, any := range models {
		any.helpView()
	}
}
`;

it("Go: a member through the method's receiver or a parameter declared of a type is that type's, exact; an untyped variable's stays a guess", async () => {
  const root = writeTree(tempDir("magellan-go-recv-"), { "go.mod": "module example.com/glowish\n\ngo 1.22\n", "ui/pager.go": PAGER, "ui/stash.go": STASH });
  assert.equal((await mg(root, ["index"])).r.code, 0);
  const d = new Database(join(root, ".magellan", "code.db"), { readonly: true });
  try {
    const rows = d
      .prepare(
        `SELECT f.path, r.qualifier, r.name, t.display_fqn, r.resolution FROM refs r JOIN files f ON f.id = r.file_id
         LEFT JOIN symbols t ON t.symbol_id = r.target_symbol_id WHERE r.qualifier IS NOT NULL ORDER BY f.path, r.byte_start`,
      )
      .raw()
      .all();
    assert.deepEqual(rows, [
      ["ui/pager.go", "m", "state", "ui.pagerModel.state", "exact"],
      ["ui/pager.go", "m", "helpView", "ui.pagerModel.helpView", "exact"],
      ["ui/stash.go", "m", "state", "ui.stashModel.state", "exact"],
      ["ui/stash.go", "m", "helpView", "ui.stashModel.helpView", "exact"],
      ["ui/stash.go", "m", "pager", "ui.stashModel.pager", "exact"],
      // Through the receiver's field, of a type of the package (typed-fields.test.ts).
      ["ui/stash.go", "m.pager", "View", "ui.pagerModel.View", "heuristic"],
      ["ui/stash.go", "s", "pager", "ui.stashModel.pager", "exact"],
      ["ui/stash.go", "s.pager", "helpView", "ui.pagerModel.helpView", "heuristic"],
      // A parameter declared `other stashModel` (receiver_type).
      ["ui/stash.go", "other", "helpView", "ui.stashModel.helpView", "exact"],
      // A range variable over the package-level `var models []stashModel`: its element type.
      ["ui/stash.go", "any", "helpView", "ui.stashModel.helpView", "exact"],
    ]);
  } finally {
    d.close();
  }
});

it("Go: a member promoted from an embedded struct is the embedded type's; one of an embedded library type (sync.Mutex's Lock) is not guessed", async () => {
  const root = writeTree(tempDir("magellan-go-embed-"), {
    "go.mod": "module example.com/embed\n\ngo 1.22\n",
    "ui/common.go": "package ui\n\ntype common struct {\n\twidth int\n}\n\nfunc (c common) resize(w int) { c.width = w }\n",
    "ui/other.go": "package ui\n\ntype other struct {\n\twidth int\n}\n\nfunc (o other) resize(w int) {}\n",
    // Another type's Lock: a guess by name would take it for the Mutex's.
    "ui/store.go": "package ui\n\ntype store struct{}\n\nfunc (s *store) Lock() {}\n",
    "ui/model.go":
      'package ui\n\nimport "sync"\n\ntype model struct {\n\t*common\n\tsync.Mutex\n}\n\nfunc (m *model) layout() int {\n\tm.resize(80)\n\tm.Lock()\n\treturn m.width\n}\n',
  });
  assert.equal((await mg(root, ["index"])).r.code, 0);
  const d = new Database(join(root, ".magellan", "code.db"), { readonly: true });
  try {
    const rows = d
      .prepare(
        `SELECT r.qualifier, r.name, t.display_fqn, r.resolution FROM refs r JOIN files f ON f.id = r.file_id
         LEFT JOIN symbols t ON t.symbol_id = r.target_symbol_id WHERE f.path = 'ui/model.go' AND r.qualifier = 'm' ORDER BY r.byte_start`,
      )
      .raw()
      .all();
    // (other has resize and width too: a guess by name was ambiguous.)
    assert.deepEqual(rows, [
      ["m", "resize", "ui.common.resize", "heuristic"],
      ["m", "Lock", null, "unresolved"],
      ["m", "width", "ui.common.width", "heuristic"],
    ]);
  } finally {
    d.close();
  }
});

// Shaped on spf13/viper's viper.go: `var v *Viper` at the top, `func Get(key string) any { return
// v.Get(key) }` below, beside another type with a Get method. The package-level variable's type
// was not read: viper.go's global functions' calls were `heuristic` or `ambiguous` guesses.
const GLOBAL = `package cfg

type Other struct{}

func (o *Other) Get(key string) any { return nil }

func Get(key string) any { return v.Get(key) }

var v *Viper

var (
	w    Viper
	x, y *Viper
)

type Viper struct{ n int }

func (v *Viper) Get(key string) any { return v.n }

func GetW(key string) any { return w.Get(key) }

func GetY(key string) any { return y.Get(key) }

func Shadowed(v *Other) any { return v.Get("k") }
`;

it("Go: a package-level variable declared of a type types its uses anywhere in its file", async () => {
  const root = tempDir("magellan-go-global-");
  writeTree(root, { "go.mod": "module example.com/cfg\n\ngo 1.21\n", "viper.go": GLOBAL });
  assert.equal((await mg(root, ["index"])).r.code, 0);
  const callers = async (name: string): Promise<string[]> =>
    ((await mg(root, ["callers", "--name", name])).env.data.references ?? []).map((r) => `${r.span.start_line} ${r.resolution} ${r.caller ?? "-"}`);
  assert.deepEqual(await callers("Viper.Get"), ["7 exact Get", "20 exact GetW", "22 exact GetY"]);
  // A parameter of the package variable's name is the parameter.
  assert.deepEqual(await callers("Other.Get"), ["24 exact Shadowed"]);
});
