/**
 * Java and C++ overloads are told apart by how many arguments a call passes: gson's eight
 * `Gson.toJson` took every call, whatever it passed, to the first one, which left the others with
 * no caller (and dead-code listed them). Each callable stores the arguments it takes (`2`, `1-3`
 * with C++ default arguments, `2+` with varargs), each call the arguments it passes; overloads of
 * one count still go to the first of them (types decide, which resolution does not see). The
 * incremental index must equal a rebuild when a call's or a definition's count changes (real
 * tree-sitter, real SQLite).
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import { tempDir, writeTree } from "../support/run.js";
import { assertIncrementalMatchesRebuild, mg } from "./support.js";

const JAVA = {
  "src/main/java/acme/Box.java": `package acme;

public class Box {
  public Box() {}

  public Box(int size) {}

  public void put(Object value) {}

  public void put(Object value, int times) {}

  public void put(Object value, int times, boolean last) {}

  public void log(String format, Object... args) {}

  public void log(int level) {}
}
`,
  "src/main/java/acme/User.java": `package acme;

public class User {
  void run() {
    Box a = new Box();
    Box b = new Box(3);
    a.put("x");
    a.put("x", 2);
    b.put("x", 2, true);
    a.log("%s %s", 1, 2);
    a.log("plain");
    b.log(
        // a comment is no argument
        7);
  }
}
`,
};

// guice's AbstractModule: the bare call inside one overload is the other's, not itself.
const MODULE = {
  "src/main/java/acme/Module.java": `package acme;

public abstract class Module {
  public final void configure(Object binder) {
    configure();
  }

  protected void configure() {}

  void again(int n) {
    again(n - 1);
  }

  Object first() {
    return java.util.stream.Stream.of("a").sorted().findFirst();
  }

  void findFirst(int n) {}
}
`,
  // guice's test class loader: the one-argument loadClass is URLClassLoader's.
  "src/main/java/acme/Loader.java": `package acme;

public class Loader extends java.net.URLClassLoader {
  Loader() {
    super(new java.net.URL[0]);
  }

  Class<?> named(String name) throws ClassNotFoundException {
    return loadClass(name);
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    return super.loadClass(name, resolve);
  }
}
`,
};

const CPP = {
  "geo.h": `class Geo {
 public:
  int area();
  int area(int scale);
  static int make(int w, int h = 1);
  static int make(const char *spec, int w, int h);
  int sum(int n, ...);
};
`,
  "geo.cpp": `#include "geo.h"

int use(Geo &g) {
  int a = g.area();
  int b = g.area(2);
  int c = Geo::make(3);
  int d = Geo::make(3, 4);
  int e = Geo::make("3x4", 3, 4);
  int f = g.sum(1, 2, 3, 4);
  return a + b + c + d + e + f;
}
`,
};

/** Each call of the file, in source order: [name, line of the call, line of its target, resolution]. */
function calls(root: string, path: string): [string, number, number | null, string][] {
  const d = new Database(join(root, ".magellan", "code.db"), { readonly: true });
  try {
    return d
      .prepare(
        `SELECT r.name, r.start_line, s.start_line AS target_line, r.resolution FROM refs r JOIN files f ON f.id = r.file_id
         LEFT JOIN symbols s ON s.symbol_id = r.target_symbol_id WHERE f.path = ? AND r.kind = 'call' ORDER BY r.byte_start`,
      )
      .raw()
      .all(path) as [string, number, number | null, string][];
  } finally {
    d.close();
  }
}

function arities(root: string, path: string): [string, number, string | null][] {
  const d = new Database(join(root, ".magellan", "code.db"), { readonly: true });
  try {
    return d
      .prepare("SELECT s.name, s.start_line, s.arity FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.kind_normalized IN ('fn', 'method', 'ctor') ORDER BY s.byte_start")
      .raw()
      .all(path) as [string, number, string | null][];
  } finally {
    d.close();
  }
}

describe("magellan: overloads by argument count", () => {
  it("Java: constructors, methods and varargs reach the overload of the call's argument count", async () => {
    const root = tempDir("magellan-overloads-");
    writeTree(root, { ...JAVA, ...MODULE });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    assert.deepEqual(calls(root, "src/main/java/acme/Module.java"), [
      ["configure", 5, 8, "exact"],
      // (A call of the enclosing method's own arity is itself.)
      ["again", 11, 10, "exact"],
      ["of", 15, null, "unresolved"],
      ["sorted", 15, null, "unresolved"],
      // A guess by name never reaches a method of another argument count.
      ["findFirst", 15, null, "unresolved"],
    ]);
    assert.deepEqual(
      calls(root, "src/main/java/acme/Loader.java").filter(([name]) => name === "loadClass"),
      [
        // No declaration in reach takes one argument: an inherited library method's.
        ["loadClass", 9, null, "unresolved"],
        // (super.loadClass(name, resolve): the library's, whose class the repository does not hold.)
        ["loadClass", 14, null, "unresolved"],
      ],
    );
    assert.deepEqual(arities(root, "src/main/java/acme/Box.java"), [
      ["Box", 4, "0"],
      ["Box", 6, "1"],
      ["put", 8, "1"],
      ["put", 10, "2"],
      ["put", 12, "3"],
      ["log", 14, "1+"],
      ["log", 16, "1"],
    ]);
    assert.deepEqual(calls(root, "src/main/java/acme/User.java"), [
      // (A constructor call reaches the class, whichever constructor it is; Box is the
      // package's one class of that name, `imported` as through an import.)
      ["Box", 5, 3, "imported"],
      ["Box", 6, 3, "imported"],
      ["put", 7, 8, "imported"],
      ["put", 8, 10, "imported"],
      ["put", 9, 12, "imported"],
      ["log", 10, 14, "imported"],
      // One argument fits both: the first of them, as before.
      ["log", 11, 14, "heuristic"],
      ["log", 12, 14, "heuristic"],
    ]);
    // `find` says which overload is which.
    const found = await mg(root, ["find", "--name", "put"]);
    assert.deepEqual(
      (found.env.data.matches as { span: { start_line: number }; arity?: string }[]).map((m) => [m.span.start_line, m.arity]),
      [
        [8, "1"],
        [10, "2"],
        [12, "3"],
      ],
    );
    // The call's count changes, then a definition's: other files' calls follow, as a rebuild's.
    const user = join(root, "src/main/java/acme/User.java");
    writeFileSync(user, readFileSync(user, "utf8").replace('a.put("x");', 'a.put("x", 1, false);'));
    await assertIncrementalMatchesRebuild(root, "call-count");
    assert.deepEqual(calls(root, "src/main/java/acme/User.java")[2], ["put", 7, 12, "imported"]);
    const box = join(root, "src/main/java/acme/Box.java");
    writeFileSync(box, readFileSync(box, "utf8").replace("public void put(Object value, int times, boolean last) {}", "public void put(Object value, int times, boolean last, int more) {}"));
    await assertIncrementalMatchesRebuild(root, "definition-count");
    // No put takes three arguments any more: the guess names none.
    assert.deepEqual(calls(root, "src/main/java/acme/User.java")[2], ["put", 7, null, "unresolved"]);
  });

  it("C++: default arguments, C varargs and `(void)` count as calls may pass them", async () => {
    const root = tempDir("magellan-overloads-");
    writeTree(root, {
      ...CPP,
      "plain.cpp": "int none(void) { return 0; }\nint two(int a, int b) { return a + b; }\n",
      // A default argument on a header's prototype (no symbol) and the definition elsewhere.
      "util.h": "namespace u {\nint scale(int a, int b = 2);\n}\n",
      "util.cpp": '#include "util.h"\nnamespace u {\nint scale(int a, int b) { return a * b; }\n}\n',
      "use.cpp": '#include "util.h"\nint twice() { return u::scale(1) + u::scale(1, 2, 3); }\n',
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    assert.deepEqual(arities(root, "geo.h"), [
      ["area", 3, "0"],
      ["area", 4, "1"],
      ["make", 5, "1-2"],
      ["make", 6, "3"],
      ["sum", 7, "1+"],
    ]);
    // Outside a class body a definition's defaults may be on another declaration: only its most
    // is known.
    assert.deepEqual(arities(root, "plain.cpp"), [
      ["none", 1, "0"],
      ["two", 2, "0-2"],
    ]);
    assert.deepEqual(
      calls(root, "use.cpp").map(([name, line, target, how]) => [name, line, target, how]),
      [
        ["scale", 2, 3, "heuristic"],
        // More arguments than it takes: no guess.
        ["scale", 2, null, "unresolved"],
      ],
    );
    const got = calls(root, "geo.cpp").map(([name, line, target]) => [name, line, target]);
    assert.deepEqual(got, [
      ["area", 4, 3],
      ["area", 5, 4],
      ["make", 6, 5],
      ["make", 7, 5],
      ["make", 8, 6],
      ["sum", 9, 7],
    ]);
  });
});

describe("magellan: candidates of a reference's own language family", () => {
  it("a C++ name is never guessed into Python, a Java call lists no TypeScript method; TypeScript still reaches JavaScript", async () => {
    // fmt's `result.size` read `heuristic`ally flask's views.py `result` on a tree of both, and a
    // Java `threadCalls.put(...)` listed outline's TypeScript `ApiClient.put` among its candidates.
    const root = tempDir("magellan-families-");
    writeTree(root, {
      "native/run.cc": "int run() {\n  return result.size;\n}\n",
      "tasks/views.py": "def result():\n    return 1\n",
      "src/main/java/acme/Cache.java": "package acme;\n\npublic class Cache {\n  private java.util.Map<String, String> calls;\n\n  void keep(String k) {\n    calls.put(k, k);\n  }\n}\n",
      "web/api.ts": "export class ApiClient {\n  put(path: string, body: unknown): void {}\n}\n",
      "web/legacy.js": "export function helper() {\n  return 1;\n}\n",
      "web/main.ts": "import { helper } from './legacy';\n\nhelper();\n",
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const d = new Database(join(root, ".magellan", "code.db"), { readonly: true });
    try {
      const result = d.prepare("SELECT resolution, target_symbol_id FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.name = 'result'").raw().get("native/run.cc");
      assert.deepEqual(result, ["unresolved", null]);
      const put = d.prepare("SELECT resolution, candidates FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.name = 'put'").raw().get("src/main/java/acme/Cache.java");
      assert.deepEqual(put, ["unresolved", null]);
    } finally {
      d.close();
    }
    assert.deepEqual(calls(root, "web/main.ts"), [["helper", 3, 1, "imported"]]);
  });
});

describe("magellan: the callers of a constructor", () => {
  // `new Box(3)` is tied to the class Box (its name's symbol); a constructor's callers are the
  // class's calls that its argument count picks. gson's JsonReader(Reader) had none listed.
  const callerLines = async (root: string, id: string): Promise<number[]> => {
    const out = await mg(root, ["callers", "--symbol-id", id]);
    assert.equal(out.r.code, 0, out.r.stderr);
    const refs = out.env.data.references as { span: { file_path: string; start_line: number }; target_symbol_id: string }[];
    for (const r of refs) assert.equal(r.target_symbol_id, id);
    return refs.map((r) => r.span.start_line);
  };
  const ctorIds = async (root: string, name: string, path: string): Promise<string[]> => {
    const found = await mg(root, ["find", "--name", name, "--kind", "ctor", "--path", path]);
    return (found.env.data.matches as { symbol_id: string }[]).map((m) => m.symbol_id);
  };

  it("Java, Python and TypeScript: each constructor lists the instantiations it takes; the class still lists them all", async () => {
    const root = tempDir("magellan-ctor-callers-");
    writeTree(root, {
      ...JAVA,
      "app/models.py": "class Point:\n    def __init__(self, x, y):\n        self.x = x\n\n\nclass Empty:\n    pass\n",
      "app/use.py": "from app.models import Point, Empty\n\n\ndef make():\n    Empty()\n    return Point(1, 2)\n",
      "web/store.ts": "export class Store {\n  constructor(readonly name: string) {}\n}\n",
      "web/main.ts": "import { Store } from './store';\n\nexport function open(): Store {\n  return new Store('a');\n}\n",
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const [box0, box1] = await ctorIds(root, "Box", "src/main/java/acme/Box.java");
    assert.deepEqual(await callerLines(root, box0 as string), [5]);
    assert.deepEqual(await callerLines(root, box1 as string), [6]);
    const [init] = await ctorIds(root, "__init__", "app/models.py");
    assert.deepEqual(await callerLines(root, init as string), [6]);
    const [ctor] = await ctorIds(root, "constructor", "web/store.ts");
    assert.deepEqual(await callerLines(root, ctor as string), [4]);
    // The class keeps every instantiation (and --with-callers on the constructor agrees).
    const cls = await mg(root, ["callers", "--name", "Box", "--kind", "class"]);
    assert.deepEqual((cls.env.data.references as { span: { start_line: number } }[]).map((r) => r.span.start_line), [5, 6]);
    const rich = await mg(root, ["find", "--symbol-id", box1 as string, "--with-callers"]);
    const m = (rich.env.data.matches as { relationships?: { callers?: { span: { start_line: number } }[] } }[])[0];
    assert.deepEqual(m?.relationships?.callers?.map((c) => c.span.start_line), [6]);
  });

  it("C++: a macro invocation in a class body is no constructor", async () => {
    const root = tempDir("magellan-ctor-macro-");
    writeTree(root, {
      "src/mutex.h": `#define DISALLOW_COPY_AND_ASSIGN(T) T(const T&) = delete

class Mutex {
 public:
  Mutex();
  explicit Mutex(int spins);
  void Lock() LOCKS_EXCLUDED(mu_);

 private:
  DISALLOW_COPY_AND_ASSIGN(Mutex);
};
`,
      "src/main.cc": '#include "mutex.h"\n\nint main() {\n  Mutex a;\n  Mutex* b = new Mutex(4);\n  return 0;\n}\n',
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const found = await mg(root, ["find", "--name", "DISALLOW_COPY_AND_ASSIGN"]);
    assert.deepEqual(
      (found.env.data.matches as { kind: string }[]).map((m) => m.kind),
      ["Macro"],
    );
    const ctors = await mg(root, ["find", "--name", "Mutex", "--kind", "ctor"]);
    const ids = (ctors.env.data.matches as { symbol_id: string; arity?: string }[]).map((m) => [m.symbol_id, m.arity]);
    assert.deepEqual(ids.map(([, a]) => a), ["0", "1"]);
    assert.deepEqual(await callerLines(root, ids[1]?.[0] as string), [5]);
  });
});

describe("magellan: calls through a base type", () => {
  // gson's ObjectTypeAdapter.write had "no indexed reference" while twelve calls were tied to the
  // abstract TypeAdapter.write it implements: the answer must say that those may run it.
  const overridesOf = async (root: string, name: string, path: string): Promise<{ data: Record<string, unknown>; codes: string[] }> => {
    const id = ((await mg(root, ["find", "--name", name, "--path", path])).env.data.matches as { symbol_id: string }[])[0]?.symbol_id as string;
    const out = await mg(root, ["callers", "--symbol-id", id]);
    assert.equal(out.r.code, 0, out.r.stderr);
    return { data: out.env.data, codes: (out.env.diagnostics ?? []).map((d) => d.code) };
  };

  it("Java, TypeScript, Python and C++: an override's answer names the methods it overrides and the calls tied to them", async () => {
    const root = tempDir("magellan-dispatch-");
    writeTree(root, {
      "src/main/java/acme/Adapter.java": "package acme;\n\npublic abstract class Adapter {\n  public abstract void write(Object out, Object value);\n\n  public void write(Object out) {}\n}\n",
      "src/main/java/acme/Sink.java": "package acme;\n\npublic interface Sink {\n  void flush();\n}\n",
      "src/main/java/acme/ObjectAdapter.java":
        "package acme;\n\npublic final class ObjectAdapter extends Adapter implements Sink {\n  @Override\n  public void write(Object out, Object value) {}\n\n  @Override\n  public void flush() {}\n}\n",
      // (Through typed fields: a parameter's calls are ambiguous between the base and the
      // override, and the override's answer lists them already.)
      "src/main/java/acme/Use.java":
        "package acme;\n\nclass Use {\n  private final Adapter adapter;\n  private final Sink sink;\n\n  Use(Adapter adapter, Sink sink) {\n    this.adapter = adapter;\n    this.sink = sink;\n  }\n\n  void go() {\n    adapter.write(null, 1);\n    adapter.write(null, 2);\n    adapter.write(null);\n    sink.flush();\n  }\n}\n",
      "web/base.ts": "export abstract class Shape {\n  abstract area(): number;\n}\n\nexport function total(shapes: Shape[]): number {\n  return shapes.reduce((n, s) => n + s.area(), 0);\n}\n",
      "web/square.ts": "import { Shape } from './base';\n\nexport class Square extends Shape {\n  area(): number {\n    return 4;\n  }\n}\n",
      "app/base.py": "class Handler:\n    def handle(self, event):\n        raise NotImplementedError\n\n\ndef run(h: Handler):\n    h.handle(1)\n",
      "app/impl.py": "from app.base import Handler\n\n\nclass Echo(Handler):\n    def handle(self, event):\n        return event\n",
      "native/shape.h": "class Base {\n public:\n  virtual int size() const;\n};\n\nclass Leaf : public Base {\n public:\n  int size() const override;\n};\n\ninline int twice(const Base& b) { return 2 * b.size(); }\n",
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const java = await overridesOf(root, "write", "src/main/java/acme/ObjectAdapter.java");
    // Only the overload of its count: write(Object) is another method.
    assert.deepEqual(
      (java.data.overrides as { display_fqn: string; references: number }[]).map((o) => [o.display_fqn, o.references]),
      [["acme.Adapter.write", 2]],
    );
    assert.ok(java.codes.includes("MAGELLAN_E115"), java.codes.join());
    // The other way: the abstract method names its implementation and the call tied to it.
    const base = await mg(root, ["callers", "--name", "write", "--path", "src/main/java/acme/Adapter.java"]);
    assert.deepEqual(
      (base.env.data.overridden_by as { display_fqn: string; references: number }[]).map((o) => [o.display_fqn, o.references]),
      [["acme.ObjectAdapter.write", 0]],
    );
    const iface = await mg(root, ["refs", "--name", "flush", "--path", "src/main/java/acme/Sink.java"]);
    assert.deepEqual((iface.env.data.overridden_by as { display_fqn: string }[]).map((o) => o.display_fqn), ["acme.ObjectAdapter.flush"]);
    const flush = await overridesOf(root, "flush", "src/main/java/acme/ObjectAdapter.java");
    assert.deepEqual((flush.data.overrides as { display_fqn: string; references: number }[]).map((o) => [o.display_fqn, o.references]), [["acme.Sink.flush", 1]]);
    const ts = await overridesOf(root, "area", "web/square.ts");
    assert.deepEqual((ts.data.overrides as { references: number }[]).map((o) => o.references), [1]);
    const py = await overridesOf(root, "handle", "app/impl.py");
    assert.deepEqual((py.data.overrides as { references: number }[]).map((o) => o.references), [1]);
    const cpp = await overridesOf(root, "size", "native/shape.h");
    // (The first `size` of the header is Base's own: it overrides nothing.)
    assert.equal(cpp.data.overrides, undefined);
    assert.deepEqual((cpp.data.overridden_by as { display_fqn: string }[]).map((o) => o.display_fqn), ["native/shape::Leaf::size"]);
    const leaf = await mg(root, ["find", "--name", "size", "--path", "native/shape.h"]);
    const leafId = (leaf.env.data.matches as { symbol_id: string; parent?: string }[]).find((m) => m.parent === "Leaf")?.symbol_id as string;
    const leafCallers = await mg(root, ["callers", "--symbol-id", leafId]);
    // `b.size()` on a `const Base&` is Base::size's (the parameter's declared type): none of
    // Leaf's own, and the override's answer says that one call is tied to the method it
    // overrides, which a Leaf may answer at run time.
    assert.deepEqual((leafCallers.env.data.overrides as { display_fqn: string; references: number }[]).map((o) => [o.display_fqn, o.references]), [["native/shape::Base::size", 1]]);
    assert.deepEqual(leafCallers.env.data.references, []);
    assert.ok((leafCallers.env.diagnostics ?? []).some((d) => d.code === "MAGELLAN_E115"));
  });
});

describe("magellan: calls through a base type named like the class", () => {
  it("Java: `class Response implements Conn.Response` overrides the nested Conn.Response's methods, and is below it", async () => {
    // jsoup's HttpConnection.Response implements Connection.Response: by its simple name the base
    // was the class itself, and Response.parse had no caller, no override and no warning while
    // the interface's parse had 36 calls.
    const root = tempDir("magellan-dispatch-samename-");
    writeTree(root, {
      "src/p/Conn.java": "package p;\n\npublic interface Conn {\n  interface Response { String parse(); }\n  interface Other { String parse(); }\n}\n",
      "src/p/HttpConn.java": `package p;

public class HttpConn {
  public static class Response implements Conn.Response {
    @Override public String parse() { return "a"; }
  }

  public static class Impl2 implements Conn.Other {
    @Override public String parse() { return "b"; }
  }

  static String use(Conn.Response r, Conn.Other o) { return r.parse() + o.parse(); }
}
`,
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const parse = async (parent: string): Promise<{ data: Record<string, unknown>; codes: string[] }> => {
      const found = await mg(root, ["find", "--name", "parse"]);
      const m = (found.env.data.matches as { symbol_id: string; display_fqn: string }[]).find((x) => x.display_fqn === `p.${parent}.parse`);
      assert.ok(m, parent);
      const out = await mg(root, ["callers", "--symbol-id", m.symbol_id]);
      return { data: out.env.data, codes: (out.env.diagnostics ?? []).map((d) => d.code) };
    };
    const impl = await parse("HttpConn.Response");
    assert.deepEqual((impl.data.overrides as { display_fqn: string; references: number }[] | undefined)?.map((o) => [o.display_fqn, o.references]), [["p.Conn.Response.parse", 1]]);
    assert.ok(impl.codes.includes("MAGELLAN_E115"));
    const base = await parse("Conn.Response");
    assert.deepEqual((base.data.overridden_by as { display_fqn: string }[] | undefined)?.map((o) => o.display_fqn), ["p.HttpConn.Response.parse"]);
    // Neither reaches the other interface's family, nor itself.
    const other = await parse("Conn.Other");
    assert.deepEqual((other.data.overridden_by as { display_fqn: string }[] | undefined)?.map((o) => o.display_fqn), ["p.HttpConn.Impl2.parse"]);
  });
});

describe("magellan: calls through a base type, C++ definitions outside their class", () => {
  it("a method defined outside its class names the method it overrides, as its declaration does", async () => {
    // Its parent is written as a qualifier (`Leaf::`), with no class symbol in its file to hang
    // on: the hierarchy is found by the class's name.
    const root = tempDir("magellan-dispatch-cpp-");
    writeTree(root, {
      "native/shape.h": "class Base {\n public:\n  virtual int size() const;\n};\n\nclass Leaf : public Base {\n public:\n  int size() const override;\n};\n",
      "native/leaf.cc": '#include "shape.h"\n\nint Leaf::size() const { return 1; }\n\nint measure(Base* b) { return b->size(); }\n',
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const found = await mg(root, ["find", "--name", "size", "--path", "native/leaf.cc"]);
    const id = (found.env.data.matches as { symbol_id: string }[])[0]?.symbol_id as string;
    const out = await mg(root, ["callers", "--symbol-id", id]);
    assert.deepEqual((out.env.data.overrides as { display_fqn: string }[]).map((o) => o.display_fqn), ["native/shape::Base::size"]);
  });
});
