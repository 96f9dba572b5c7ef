/**
 * `s.m()` where s is a parameter or local variable declared of a type (refs.receiver_type): m is
 * that type's member or one it inherits, and a type the repository does not declare is a
 * library's. Shaped on commons-lang, where `className.substring(1)` in ClassUtils (a String
 * parameter) was a `heuristic` call of the static StringUtils.substring, and on cobra's
 * `func f(c *Command)`.
 */
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempDir, writeTree } from "../support/run.js";
import { assertIncrementalMatchesRebuild, mg, withIndex } from "./support.js";

const JAVA = {
  "src/main/java/org/lang/StringUtils.java": `package org.lang;

public class StringUtils {
  public static String substring(String str, int start) { return str; }
}
`,
  "src/main/java/org/lang/Widget.java": `package org.lang;

public class Widget {
  public void draw() {}
}
`,
  "src/main/java/org/lang/Gadget.java": `package org.lang;

public class Gadget {
  public void draw() {}
}
`,
  "src/main/java/org/lang/Fancy.java": `package org.lang;

public class Fancy extends Widget {
}
`,
  "src/main/java/org/lang/ClassUtils.java": `package org.lang;

import java.util.List;

public class ClassUtils {
  private Gadget w;

  static String shortName(String className, String[] parts) {
    String rest = className.substring(1);
    return parts[0].substring(1) + rest;
  }

  void paint(Widget w) {
    w.draw();
  }

  void fancy(Fancy f) {
    f.draw();
  }

  void field() {
    w.draw();
  }

  void list(List<Widget> ws) {
    ws.get(0);
  }

  <T extends Widget> void bound(T t) {
    t.draw();
  }

  void local() {
    Widget made = new Widget();
    made.draw();
  }
}
`,
};

/** (qualifier, name, target's display name, resolution) of a file's qualified calls, in order. */
function calls(root: string, path: string): [string, string, string | null, string][] {
  return withIndex(
    root,
    (d) =>
      d
        .prepare(
          `SELECT r.qualifier, r.name, t.display_fqn, r.resolution FROM refs r JOIN files f ON f.id = r.file_id
           LEFT JOIN symbols t ON t.symbol_id = r.target_symbol_id WHERE f.path = ? AND r.qualifier IS NOT NULL AND r.kind = 'call'
           ORDER BY r.byte_start`,
        )
        .raw()
        .all(path) as [string, string, string | null, string][],
  );
}

describe("magellan: members through a parameter's or local's declared type", () => {
  it("Java: a library type's member is no repository method; a repository type's is its own or inherited", async () => {
    const root = writeTree(tempDir("magellan-receiver-java-"), JAVA);
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const got = calls(root, "src/main/java/org/lang/ClassUtils.java");
    const of = (q: string, name: string) => got.find((c) => c[0] === q && c[1] === name);
    // String and an element of String[]: not StringUtils.substring.
    assert.deepEqual(of("className", "substring"), ["className", "substring", null, "unresolved"]);
    assert.deepEqual(of("parts[0]", "substring"), ["parts[0]", "substring", null, "unresolved"]);
    // The parameter shadows the field of the same name (a Gadget).
    assert.equal(of("w", "draw")?.[2], "org.lang.Widget.draw", JSON.stringify(got));
    assert.equal(got.filter((c) => c[0] === "w" && c[1] === "draw")[1]?.[2], "org.lang.Gadget.draw", JSON.stringify(got));
    // Inherited from the declared type's base.
    assert.equal(of("f", "draw")?.[2], "org.lang.Widget.draw");
    // java.util.List's get: outside.
    assert.deepEqual(of("ws", "get"), ["ws", "get", null, "unresolved"]);
    // A type parameter says nothing by its name: left to the other rules, not declared outside.
    assert.notEqual(of("t", "draw")?.[3], "unresolved", JSON.stringify(got));
    assert.equal(of("made", "draw")?.[2], "org.lang.Widget.draw");
    // What callers of StringUtils.substring answer: none of those.
    const callers = (await mg(root, ["callers", "--name", "substring"])).env.data;
    assert.equal(callers.count, 0, JSON.stringify(callers.references));
  });

  it("Go: a parameter of a package type reaches that type's method; one of a library or predeclared type none", async () => {
    const root = writeTree(tempDir("magellan-receiver-go-"), {
      "go.mod": "module example.com/srv\n\ngo 1.22\n",
      "srv/conn.go": "package srv\n\ntype Conn struct{}\n\nfunc (c *Conn) Close() error { return nil }\n\ntype File struct{}\n\nfunc (f *File) Close() error { return nil }\n\nfunc (f *File) Error() string { return \"\" }\n",
      "srv/serve.go": `package srv

import "net/http"

func serve(c *Conn, r *http.Request, err error, files []*File) {
	c.Close()
	r.Close()
	err.Error()
	files[0].Close()
}
`,
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    // (A type of another file of the package is found as Go's unqualified names are: heuristic.)
    assert.deepEqual(calls(root, "srv/serve.go"), [
      ["c", "Close", "srv.Conn.Close", "heuristic"],
      ["r", "Close", null, "unresolved"],
      ["err", "Error", null, "unresolved"],
      ["files[0]", "Close", "srv.File.Close", "heuristic"],
    ]);
  });

  it("TypeScript and JavaScript: an annotation or a `new` initializer names the type; a predefined, array or imported library type none", async () => {
    const root = writeTree(tempDir("magellan-receiver-ts-"), {
      "package.json": '{ "name": "orm", "dependencies": { "express": "4" } }\n',
      "src/query-builder.ts": "export class QueryBuilder {\n  where(): this { return this; }\n  getMany(): number[] { return []; }\n}\n",
      "src/repository.ts": "export class Repository {\n  where(): void {}\n  getMany(): void {}\n  trim(): void {}\n}\n",
      "src/find.ts": `import { Request } from "express";
import { QueryBuilder } from "./query-builder";

export function find(qb: QueryBuilder, name: string, req: Request, all: QueryBuilder[], maybe: QueryBuilder | undefined): void {
  qb.where();
  name.trim();
  req.getMany();
  all.getMany();
  maybe?.getMany();
  const made = new QueryBuilder();
  made.getMany();
  let loose: any = qb;
  loose.where();
}
`,
      "src/plain.js": 'const { QueryBuilder } = require("./query-builder");\n\nfunction run() {\n  const q = new QueryBuilder();\n  q.getMany();\n}\n',
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const got = calls(root, "src/find.ts");
    const of = (q: string, name: string) => got.find((c) => c[0] === q && c[1] === name);
    assert.equal(of("qb", "where")?.[2], "src/query-builder.QueryBuilder.where", JSON.stringify(got));
    assert.deepEqual(of("name", "trim"), ["name", "trim", null, "unresolved"]);
    assert.deepEqual(of("req", "getMany"), ["req", "getMany", null, "unresolved"]);
    assert.deepEqual(of("all", "getMany"), ["all", "getMany", null, "unresolved"]);
    assert.equal(of("maybe", "getMany")?.[2], "src/query-builder.QueryBuilder.getMany", JSON.stringify(got));
    assert.equal(of("made", "getMany")?.[2], "src/query-builder.QueryBuilder.getMany", JSON.stringify(got));
    // `any` says nothing: the guess among the candidates stays.
    assert.notEqual(of("loose", "where")?.[3], "unresolved", JSON.stringify(got));
    assert.equal(calls(root, "src/plain.js").find((c) => c[0] === "q")?.[2], "src/query-builder.QueryBuilder.getMany");
  });

  it("Rust: a reference, Box or `T::new()` names the type; a std type none, but a repository trait implemented for it its method", async () => {
    const root = writeTree(tempDir("magellan-receiver-rs-"), {
      "Cargo.toml": '[package]\nname = "pp"\nversion = "0.1.0"\nedition = "2021"\n',
      "src/lib.rs": `use std::path::Path;

pub struct Printer;
impl Printer {
    pub fn new() -> Self { Printer }
    pub fn print(&self) {}
    pub fn len(&self) -> usize { 0 }
}

pub struct Buffer;
impl Buffer {
    pub fn print(&self) {}
}

pub trait PathExt {
    fn is_hidden(&self) -> bool;
}
impl PathExt for Path {
    fn is_hidden(&self) -> bool { false }
}

pub fn run(p: &mut Printer, boxed: Box<Printer>, name: &str, path: &Path, v: Vec<Buffer>) {
    p.print();
    boxed.print();
    name.len();
    path.is_hidden();
    v.len();
    let made = Printer::new();
    made.print();
}
`,
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const got = calls(root, "src/lib.rs");
    const of = (q: string, name: string) => got.find((c) => c[0] === q && c[1] === name);
    assert.match(of("p", "print")?.[2] ?? "", /Printer::print$/, JSON.stringify(got));
    assert.match(of("boxed", "print")?.[2] ?? "", /Printer::print$/, JSON.stringify(got));
    assert.deepEqual(of("name", "len"), ["name", "len", null, "unresolved"]);
    assert.deepEqual(of("v", "len"), ["v", "len", null, "unresolved"]);
    assert.match(of("path", "is_hidden")?.[2] ?? "", /is_hidden$/, JSON.stringify(got));
    assert.match(of("made", "print")?.[2] ?? "", /Printer::print$/, JSON.stringify(got));
  });

  it("Python: an annotation or a `Foo(...)` assignment names the class; a builtin none; a name assigned two classes no one type", async () => {
    const root = writeTree(tempDir("magellan-receiver-py-"), {
      "pkg/__init__.py": "",
      "pkg/models.py": "class Request:\n    def read(self):\n        return b''\n\n\nclass Response:\n    def read(self):\n        return b''\n",
      "pkg/client.py": `from typing import Optional
from pkg.models import Request, Response


def send(request: Request, text: str, maybe: Optional[Response] = None):
    request.read()
    text.strip()
    maybe.read()
    made = Response()
    made.read()
    either = Request()
    either = Response()
    either.read()
`,
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const got = calls(root, "pkg/client.py");
    const of = (q: string, name: string) => got.find((c) => c[0] === q && c[1] === name);
    assert.equal(of("request", "read")?.[2], "pkg.models.Request.read", JSON.stringify(got));
    assert.deepEqual(of("text", "strip"), ["text", "strip", null, "unresolved"]);
    assert.equal(of("maybe", "read")?.[2], "pkg.models.Response.read", JSON.stringify(got));
    assert.equal(of("made", "read")?.[2], "pkg.models.Response.read", JSON.stringify(got));
    assert.equal(of("either", "read")?.[2] ?? null, null, JSON.stringify(got));
    assert.notEqual(of("either", "read")?.[3], "unresolved", JSON.stringify(got));
  });

  it("C and C++: a struct pointer's field is its struct's; a std type's method is outside; a template's parameter and a macro say nothing", async () => {
    const root = writeTree(tempDir("magellan-receiver-c-"), {
      "hiredis.h": "typedef struct redisContext {\n    int err;\n    int flags;\n} redisContext;\n\ntypedef struct redisReply {\n    int err;\n} redisReply;\n",
      "net.c": '#include "hiredis.h"\n\nint check(redisContext *c) {\n    c->flags = 1;\n    return c->err;\n}\n',
      "log.hpp": `#include <memory>
#include <string>

class Logger {
 public:
  void flush();
  std::size_t size() const;
};

class Sink {
 public:
  void flush();
  std::size_t size() const;
};

inline void run(const std::string& name, std::unique_ptr<Logger> lg) {
  name.size();
  lg->flush();
}

template <typename FormatContext>
void out(FormatContext& ctx) {
  ctx.flush();
}
`,
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const c = (await mg(root, ["refs", "--name", "check", "--direction", "out"])).env.data.references as { referenced_symbol: string; target_display_fqn?: string }[];
    assert.deepEqual(
      c.filter((r) => r.referenced_symbol === "err" || r.referenced_symbol === "flags").map((r) => `${r.referenced_symbol}:${r.target_display_fqn}`),
      ["flags:hiredis.redisContext.flags", "err:hiredis.redisContext.err"],
    );
    const got = calls(root, "log.hpp");
    const of = (q: string, name: string) => got.find((x) => x[0] === q && x[1] === name);
    assert.deepEqual(of("name", "size"), ["name", "size", null, "unresolved"]);
    assert.match(of("lg", "flush")?.[2] ?? "", /Logger::flush$/, JSON.stringify(got));
    assert.notEqual(of("ctx", "flush")?.[3], "unresolved", JSON.stringify(got));
  });

  it("incremental runs equal a rebuild when the declared type comes, gains the member through a base, and goes", async () => {
    const { "src/main/java/org/lang/Widget.java": widget, ...rest } = JAVA;
    const root = writeTree(tempDir("magellan-receiver-inc-"), rest);
    // (Fancy extends a Widget that is not there yet.)
    assert.equal((await mg(root, ["index"])).r.code, 0);
    assert.deepEqual(
      calls(root, "src/main/java/org/lang/ClassUtils.java").find((c) => c[0] === "f"),
      ["f", "draw", null, "unresolved"],
    );
    writeFileSync(join(root, "src/main/java/org/lang/Widget.java"), widget);
    await assertIncrementalMatchesRebuild(root, "type-came");
    assert.equal(calls(root, "src/main/java/org/lang/ClassUtils.java").find((c) => c[0] === "f")?.[2], "org.lang.Widget.draw");
    writeFileSync(join(root, "src/main/java/org/lang/Fancy.java"), "package org.lang;\n\npublic class Fancy extends Gadget {\n}\n");
    await assertIncrementalMatchesRebuild(root, "base-changed");
    assert.equal(calls(root, "src/main/java/org/lang/ClassUtils.java").find((c) => c[0] === "f")?.[2], "org.lang.Gadget.draw");
    rmSync(join(root, "src/main/java/org/lang/Widget.java"));
    await assertIncrementalMatchesRebuild(root, "type-went");
    assert.deepEqual(
      calls(root, "src/main/java/org/lang/ClassUtils.java").find((c) => c[0] === "w"),
      ["w", "draw", null, "unresolved"],
    );
    // A symbol of that name that is no type (a field) says the name is no library's: the call is
    // left to the other rules again, in the incremental run as in a rebuild.
    writeFileSync(join(root, "src/main/java/org/lang/Holder.java"), "package org.lang;\n\npublic class Holder {\n  int Widget;\n}\n");
    await assertIncrementalMatchesRebuild(root, "name-came");
    assert.notEqual(calls(root, "src/main/java/org/lang/ClassUtils.java").find((c) => c[0] === "w")?.[3], "unresolved");
  });
});
