/**
 * Members reached through a chain of calls: `repo.createQueryBuilder("u").where("a").getMany()`
 * (typeorm's query builders), `Option.builder("a").hasArg().build()` (commons-cli's builders),
 * `self.client.get(url).json()` (an HTTP client). Each link's target was a guess among every
 * type's member of that name (typeorm's `where` among 6 classes), and a chain made on a library
 * function's result (chai's `expect(x).to.be`) reached the repository's own `to` members.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempDir, writeTree } from "../support/run.js";
import { assertIncrementalMatchesRebuild, mg, refLines } from "./support.js";

const QB = `import { Base } from "./base";

export class QueryBuilder<T> extends Base {
  where(cond: string): this {
    return this;
  }
  andWhere(cond: string): this {
    return this;
  }
  orderBy(col: string): QueryBuilder<T> {
    return this;
  }
  getMany(): T[] {
    return [];
  }
}

export class Other {
  where(): void {}
  getMany(): number {
    return 1;
  }
  orderBy(): void {}
  andWhere(): void {}
}
`;

const TS = {
  "package.json": '{ "name": "orm", "devDependencies": { "chai": "4" } }\n',
  "src/base.ts": "export class Base {\n  log(): void {}\n}\n",
  "src/qb.ts": QB,
  "src/repository.ts": `import { QueryBuilder } from "./qb";

export class Repository<T> {
  createQueryBuilder(alias: string): QueryBuilder<T> {
    return new QueryBuilder<T>();
  }
  create(): T {
    return {} as T;
  }
  static of<T>(): Repository<T> {
    return new Repository<T>();
  }
}
`,
  "src/use.ts": `import { Repository } from "./repository";

export function load(repo: Repository<string>) {
  repo.createQueryBuilder("u").where("a").andWhere("b").orderBy("c").getMany();
  repo.createQueryBuilder("u").log();
  Repository.of().createQueryBuilder("v").getMany();
  return repo.create().getMany();
}
`,
  "test/use.test.ts": `import { expect } from "chai";
import { Repository } from "../src/repository";

export class Transformer {
  to(): void {}
}

expect(new Repository()).to.be.ok;
`,
};

/** An HTTP client's classes, and another class with members of the same names. */
const PY_CLIENT = `from typing import Self


class Response:
    def json(self) -> dict:
        return {}

    def raise_for_status(self) -> "Response":
        return self


class Client:
    def get(self, url) -> Response:
        return Response()

    def with_auth(self, token) -> Self:
        return self


class Other:
    def json(self):
        pass

    def get(self):
        pass
`;

describe("magellan: members through chains of calls", () => {
  it("TypeScript: each link is a member of what the one before returns (`this` keeps the type); a library function's result has library members", async () => {
    const root = writeTree(tempDir("magellan-chains-ts-"), TS);
    assert.equal((await mg(root, ["index"])).r.code, 0);
    assert.deepEqual(refLines(root, "f.path = 'src/use.ts' AND r.kind = 'call'"), [
      "src/use.ts:4 repo.createQueryBuilder imported src/repository.Repository.createQueryBuilder",
      'src/use.ts:4 repo.createQueryBuilder("u").where imported src/qb.QueryBuilder.where',
      'src/use.ts:4 repo.createQueryBuilder("u").where("a").andWhere imported src/qb.QueryBuilder.andWhere',
      'src/use.ts:4 repo.createQueryBuilder("u").where("a").andWhere("b").orderBy imported src/qb.QueryBuilder.orderBy',
      'src/use.ts:4 repo.createQueryBuilder("u").where("a").andWhere("b").orderBy("c").getMany imported src/qb.QueryBuilder.getMany',
      "src/use.ts:5 repo.createQueryBuilder imported src/repository.Repository.createQueryBuilder",
      // Inherited from the returned type's base.
      'src/use.ts:5 repo.createQueryBuilder("u").log imported src/base.Base.log',
      "src/use.ts:6 Repository.of imported src/repository.Repository.of",
      "src/use.ts:6 Repository.of().createQueryBuilder imported src/repository.Repository.createQueryBuilder",
      'src/use.ts:6 Repository.of().createQueryBuilder("v").getMany imported src/qb.QueryBuilder.getMany',
      "src/use.ts:7 repo.create imported src/repository.Repository.create",
      // `create(): T`: a type parameter says nothing; the other rules guess, never for sure.
      ...refLines(root, "f.path = 'src/use.ts' AND r.kind = 'call' AND r.start_line = 7 AND r.name = 'getMany'"),
    ]);
    assert.doesNotMatch(refLines(root, "f.path = 'src/use.ts' AND r.start_line = 7 AND r.name = 'getMany'")[0] as string, / (exact|imported) /);
    // chai's `expect(...)`: its `to` is chai's, not the test's Transformer.to.
    assert.deepEqual(refLines(root, "f.path = 'test/use.test.ts' AND r.name IN ('to', 'be')"), ["test/use.test.ts:8 expect(new Repository()).to unresolved -", "test/use.test.ts:8 expect(new Repository()).to.be unresolved -"]);
  });

  it("TypeScript: a link's return type, the returned type's members or bases, and the link file's imports changing re-resolve the chains incrementally as on a rebuild", async () => {
    const root = writeTree(tempDir("magellan-chains-inc-"), TS);
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const line4 = "f.path = 'src/use.ts' AND r.start_line = 4 AND r.name = 'getMany'";
    assert.match(refLines(root, line4)[0] as string, /imported src\/qb\.QueryBuilder\.getMany$/);

    // orderBy now returns an Other: the chain's last link follows.
    writeFileSync(join(root, "src/qb.ts"), QB.replace("orderBy(col: string): QueryBuilder<T> {\n    return this;", "orderBy(col: string): Other {\n    return new Other();"));
    await assertIncrementalMatchesRebuild(root, "return-type");
    assert.match(refLines(root, line4)[0] as string, /imported src\/qb\.Other\.getMany$/);

    // Back, and getMany gone from QueryBuilder: the link reaches no member of it.
    writeFileSync(join(root, "src/qb.ts"), QB.replace("  getMany(): T[] {\n    return [];\n  }\n", ""));
    await assertIncrementalMatchesRebuild(root, "member-gone");
    assert.doesNotMatch(refLines(root, line4)[0] as string, /QueryBuilder\.getMany/);

    // Base loses log: `...createQueryBuilder("u").log()` re-resolved in use.ts, which did not change.
    writeFileSync(join(root, "src/qb.ts"), QB);
    await assertIncrementalMatchesRebuild(root, "restored");
    writeFileSync(join(root, "src/base.ts"), "export class Base {\n  other(): void {}\n}\n");
    await assertIncrementalMatchesRebuild(root, "base-changed");
    assert.doesNotMatch(refLines(root, "f.path = 'src/use.ts' AND r.name = 'log'")[0] as string, /Base\.log/);

    // The link's file imports its return type from elsewhere: same names, another type.
    writeFileSync(join(root, "src/qb2.ts"), "export class QueryBuilder<T> {\n  getMany(): T[] {\n    return [];\n  }\n}\n");
    await assertIncrementalMatchesRebuild(root, "added");
    writeFileSync(join(root, "src/repository.ts"), TS["src/repository.ts"].replace('from "./qb"', 'from "./qb2"'));
    await assertIncrementalMatchesRebuild(root, "import-moved");
    assert.match(refLines(root, "f.path = 'src/use.ts' AND r.start_line = 6 AND r.name = 'getMany'")[0] as string, /imported src\/qb2\.QueryBuilder\.getMany$/);
  });

  it("Java: a builder's chain, from a static factory or a `new`, reaches the builder's methods", async () => {
    const root = writeTree(tempDir("magellan-chains-java-"), {
      "src/main/java/org/ex/Option.java": `package org.ex;

public class Option {
    public static Builder builder(String name) { return new Builder(name); }
    public boolean hasArg() { return false; }

    public static final class Builder {
        Builder(String name) {}
        public Builder hasArg() { return this; }
        public Builder desc(String d) { return this; }
        public Option build() { return new Option(); }
    }
}
`,
      "src/main/java/org/ex/Other.java": `package org.ex;

public class Other {
    public Other hasArg() { return this; }
    public void build() {}
    public void desc(String d) {}
}
`,
      "src/main/java/org/ex/Main.java": `package org.ex;

import java.util.List;

public class Main {
    void run(List<String> xs) {
        Option o = Option.builder("a").hasArg().desc("d").build();
        new Option.Builder("x").hasArg().build().hasArg();
        xs.stream().count();
    }
}
`,
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    assert.deepEqual(refLines(root, "f.path LIKE '%Main.java' AND r.kind = 'call' AND r.name IN ('hasArg', 'desc', 'build', 'count')"), [
      'src/main/java/org/ex/Main.java:7 Option.builder("a").hasArg imported org.ex.Option.Builder.hasArg',
      'src/main/java/org/ex/Main.java:7 Option.builder("a").hasArg().desc imported org.ex.Option.Builder.desc',
      'src/main/java/org/ex/Main.java:7 Option.builder("a").hasArg().desc("d").build imported org.ex.Option.Builder.build',
      'src/main/java/org/ex/Main.java:8 new Option.Builder("x").hasArg imported org.ex.Option.Builder.hasArg',
      'src/main/java/org/ex/Main.java:8 new Option.Builder("x").hasArg().build imported org.ex.Option.Builder.build',
      // build() returns an Option: its hasArg, not the Builder's.
      'src/main/java/org/ex/Main.java:8 new Option.Builder("x").hasArg().build().hasArg imported org.ex.Option.hasArg',
      "src/main/java/org/ex/Main.java:9 xs.stream().count unresolved -",
    ]);
  });

  it("Python: `-> Self`, a quoted return type and a class called at the head carry the chain", async () => {
    const root = writeTree(tempDir("magellan-chains-py-"), {
      "pkg/__init__.py": "",
      "pkg/client.py": PY_CLIENT,
      "pkg/main.py": `from pkg.client import Client


class Api:
    def __init__(self):
        self.client = Client()

    def fetch(self, url):
        return self.client.get(url).raise_for_status().json()

    def auth(self):
        return self.client.with_auth("t").get("/").json()


def run(c: Client):
    c.get("/x").json()
    Client().get("/y").json()
`,
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    assert.deepEqual(refLines(root, "f.path = 'pkg/main.py' AND r.kind = 'call' AND r.qualifier LIKE '%(%'"), [
      "pkg/main.py:9 self.client.get(url).raise_for_status imported pkg.client.Response.raise_for_status",
      "pkg/main.py:9 self.client.get(url).raise_for_status().json imported pkg.client.Response.json",
      'pkg/main.py:12 self.client.with_auth("t").get imported pkg.client.Client.get',
      'pkg/main.py:12 self.client.with_auth("t").get("/").json imported pkg.client.Response.json',
      'pkg/main.py:16 c.get("/x").json imported pkg.client.Response.json',
      "pkg/main.py:17 Client().get imported pkg.client.Client.get",
      'pkg/main.py:17 Client().get("/y").json imported pkg.client.Response.json',
    ]);
  });
});

describe("magellan: elements of a typed collection (TypeScript)", () => {
  it("`for (const x of xs)` and an array method's callback parameter are of the element type; a parameter that writes its own type keeps it", async () => {
    const root = writeTree(tempDir("magellan-elements-"), {
      "src/model.ts": `export class Item {
  save(): void {}
}
export class Part {
  weigh(): number {
    return 1;
  }
}
export class Other {
  save(): void {}
  weigh(): number {
    return 2;
  }
}
`,
      "src/run.ts": `import { Item, Other, Part } from "./model";

export function run(items: Item[], parts: Set<Part>, more: ReadonlyArray<Item>) {
  items.forEach((item) => item.save());
  for (const item of items) item.save();
  for (const p of parts) p.weigh();
  more.filter((x) => x.save());
  items.forEach((item: Other) => item.save());
  items.reduce((acc, x) => acc.weigh(), new Part());
}
`,
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const got = refLines(root, "f.path = 'src/run.ts' AND r.kind = 'call' AND r.name IN ('save', 'weigh')");
    assert.deepEqual(got.slice(0, 5), [
      "src/run.ts:4 item.save imported src/model.Item.save",
      "src/run.ts:5 item.save imported src/model.Item.save",
      "src/run.ts:6 p.weigh imported src/model.Part.weigh",
      "src/run.ts:7 x.save imported src/model.Item.save",
      "src/run.ts:8 item.save imported src/model.Other.save",
    ]);
    // reduce's first parameter is the accumulator, no element: the other rules' answer.
    assert.doesNotMatch(got[5] as string, /imported src\/model\.Item/);
    assert.equal(got.length, 6);
  });
});

describe("magellan: elements of a typed collection (Go, Python)", () => {
  it("Go's `for _, v := range xs` over a slice or a map's values, Python's `for x in xs` and comprehensions over list[...]/Sequence[...], are of the element type", async () => {
    const root = writeTree(tempDir("magellan-elements-go-py-"), {
      "go.mod": "module example.com/x\n\ngo 1.21\n",
      "gop/m.go": `package gop

type Item struct{}

func (i *Item) Save() {}

type Other struct{}

func (o *Other) Save() {}

func Run(items []*Item, byName map[string]Item) {
	for _, it := range items {
		it.Save()
	}
	for _, v := range byName {
		v.Save()
	}
}
`,
      "pkg/__init__.py": "",
      "pkg/m.py": `from typing import List, Sequence


class Item:
    def save(self):
        pass


class Other:
    def save(self):
        pass


def run(items: list[Item], more: List[Item], seq: Sequence[Item], pair: tuple[Item, Other]):
    for item in items:
        item.save()
    for x in more:
        x.save()
    done = [y.save() for y in seq]
    for p in pair:
        p.save()
`,
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const got = refLines(root, "r.kind = 'call' AND r.name IN ('save', 'Save')");
    assert.deepEqual(got.slice(0, 5), [
      "gop/m.go:13 it.Save exact gop.Item.Save",
      "gop/m.go:16 v.Save exact gop.Item.Save",
      "pkg/m.py:16 item.save exact pkg.m.Item.save",
      "pkg/m.py:18 x.save exact pkg.m.Item.save",
      "pkg/m.py:19 y.save exact pkg.m.Item.save",
    ]);
    // `tuple[Item, Other]` holds two types: no one element type.
    assert.doesNotMatch(got[5] as string, / exact /);
  });
});

describe("magellan: elements of a typed collection (Java)", () => {
  it("`for (var x : xs)` and `xs.forEach(x -> ...)` over a List<Item>, Set<? extends Item> or Item[] are Items; a type the loop writes wins", async () => {
    const root = writeTree(tempDir("magellan-elements-java-"), {
      "src/main/java/org/ex/M.java": `package org.ex;

import java.util.List;
import java.util.Set;

class Item { void save() {} }
class Base { void save() {} }
class Derived extends Base { void save() {} }

public class M {
    void run(List<Item> items, Set<? extends Item> set, Item[] arr, List<Derived> ds) {
        for (var it : items) it.save();
        items.forEach(x -> x.save());
        for (var a : arr) a.save();
        for (var s : set) s.save();
        for (Base b : ds) b.save();
        items.removeIf(r -> { r.save(); return true; });
    }
}
`,
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    assert.deepEqual(refLines(root, "r.kind = 'call' AND r.name = 'save'"), [
      "src/main/java/org/ex/M.java:12 it.save exact org.ex.Item.save",
      "src/main/java/org/ex/M.java:13 x.save exact org.ex.Item.save",
      "src/main/java/org/ex/M.java:14 a.save exact org.ex.Item.save",
      "src/main/java/org/ex/M.java:15 s.save exact org.ex.Item.save",
      "src/main/java/org/ex/M.java:16 b.save exact org.ex.Base.save",
      "src/main/java/org/ex/M.java:17 r.save exact org.ex.Item.save",
    ]);
  });
});

describe("magellan: locals assigned a chain of calls (TypeScript)", () => {
  it("`const repo = ds.getRepository(Post)`, `const table = await runner.getTable(..)` (a promise's value) and locals made from such locals have the chain's type; incremental runs follow a link's new return type", async () => {
    const model = `export class Table {
  findColumnByName(n: string): number {
    return 1;
  }
}
export class QueryRunner {
  async getTable(name: string): Promise<Table | undefined> {
    return undefined;
  }
  release(): void {}
}
export class Repository<T> {
  save(x: T): void {}
  createQueryBuilder(): QueryBuilder {
    return new QueryBuilder();
  }
}
export class QueryBuilder {
  where(): this {
    return this;
  }
  getMany(): void {}
}
export class DataSource {
  createQueryRunner(): QueryRunner {
    return new QueryRunner();
  }
  getRepository<T>(t: unknown): Repository<T> {
    return new Repository<T>();
  }
}
export class Other {
  findColumnByName(): void {}
  release(): void {}
  save(): void {}
  getMany(): void {}
  where(): void {}
}
`;
    const root = writeTree(tempDir("magellan-chain-locals-"), {
      "src/model.ts": model,
      "src/use.ts": `import { DataSource } from "./model";

export async function t(connections: DataSource[]) {
  await Promise.all(
    connections.map(async (connection) => {
      const queryRunner = connection.createQueryRunner();
      const table = await queryRunner.getTable("post");
      table!.findColumnByName("x");
      queryRunner.release();
      const repo = connection.getRepository(Object);
      repo.save({});
      const qb = repo.createQueryBuilder();
      qb.where().getMany();
    }),
  );
}
`,
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const calls = "f.path = 'src/use.ts' AND r.kind = 'call' AND r.start_line >= 8";
    assert.deepEqual(refLines(root, calls), [
      "src/use.ts:8 table!.findColumnByName imported src/model.Table.findColumnByName",
      "src/use.ts:9 queryRunner.release imported src/model.QueryRunner.release",
      "src/use.ts:10 connection.getRepository imported src/model.DataSource.getRepository",
      "src/use.ts:11 repo.save imported src/model.Repository.save",
      "src/use.ts:12 repo.createQueryBuilder imported src/model.Repository.createQueryBuilder",
      "src/use.ts:13 qb.where imported src/model.QueryBuilder.where",
      "src/use.ts:13 qb.where().getMany imported src/model.QueryBuilder.getMany",
    ]);
    // createQueryBuilder now returns an Other: qb's calls follow, as a rebuild finds them.
    writeFileSync(join(root, "src/model.ts"), model.replace("createQueryBuilder(): QueryBuilder {\n    return new QueryBuilder();", "createQueryBuilder(): Other {\n    return new Other();"));
    await assertIncrementalMatchesRebuild(root, "link-retyped");
    assert.deepEqual(refLines(root, "f.path = 'src/use.ts' AND r.start_line = 13 AND r.name = 'where'"), ["src/use.ts:13 qb.where imported src/model.Other.where"]);
  });
});

describe("magellan: locals assigned a chain of calls (Python)", () => {
  it("`resp = self.client.get(url)` and `r = c.with_auth(t)` hold what the call returns; `self.x = self.make()` keeps typing the attribute", async () => {
    const root = writeTree(tempDir("magellan-chain-locals-py-"), {
      "pkg/__init__.py": "",
      "pkg/client.py": PY_CLIENT,
      "pkg/svc.py": `from pkg.client import Client, Response


class Svc:
    def __init__(self, client: Client):
        self.client = client
        self.made = self.make()

    def run(self):
        resp = self.client.get("/a")
        resp.json()
        self.made.json()

    def make(self) -> Response:
        return Response()


def go(c: Client):
    r = c.with_auth("t")
    r.get("/").json()
`,
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    assert.deepEqual(refLines(root, "f.path = 'pkg/svc.py' AND r.kind = 'call' AND r.start_line >= 11 AND r.name != 'Response'"), [
      "pkg/svc.py:11 resp.json imported pkg.client.Response.json",
      "pkg/svc.py:12 self.made.json imported pkg.client.Response.json",
      "pkg/svc.py:19 c.with_auth imported pkg.client.Client.with_auth",
      "pkg/svc.py:20 r.get imported pkg.client.Client.get",
      'pkg/svc.py:20 r.get("/").json imported pkg.client.Response.json',
    ]);
  });
});

describe("magellan: locals assigned a method's result (Go)", () => {
  it("`c, err := s.Dial(addr)` with s a *Server holds Dial's first result; `w, _ := http.Get(u)` stays a library value", async () => {
    const root = writeTree(tempDir("magellan-chain-locals-go-"), {
      "go.mod": "module example.com/g\n\ngo 1.21\n",
      "srv/s.go": `package srv

import "net/http"

type Conn struct{}

func (c *Conn) Close() error { return nil }

type Other struct{}

func (o *Other) Close() error { return nil }

type Server struct{}

func (s *Server) Dial(addr string) (*Conn, error) { return &Conn{}, nil }

func Run(s *Server) {
	c, err := s.Dial("x")
	_ = err
	c.Close()
	w, _ := http.Get("u")
	w.Body.Close()
}
`,
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    assert.deepEqual(refLines(root, "r.kind = 'call' AND r.name = 'Close'"), ["srv/s.go:20 c.Close exact srv.Conn.Close", "srv/s.go:22 w.Body.Close unresolved -"]);
  });
});

describe("magellan: a package of the repository published from its build's root", () => {
  it("`orm/mysql-core` with orm's package.json `main: ./index.cjs` and its source under src/ is that source; a chain made on its function is no library's", async () => {
    const root = writeTree(tempDir("magellan-own-package-"), {
      "package.json": '{ "name": "monorepo", "private": true, "workspaces": ["orm", "tests"] }\n',
      "orm/package.json": '{ "name": "orm", "main": "./index.cjs", "module": "./index.js", "types": "./index.d.ts" }\n',
      "orm/src/mysql-core/index.ts": 'export * from "./columns";\n',
      "orm/src/mysql-core/columns.ts": `export class SerialBuilder {
  primaryKey(): this {
    return this;
  }
}
export function serial(name: string): SerialBuilder {
  return new SerialBuilder();
}
export class Other {
  primaryKey(): void {}
}
`,
      "tests/package.json": '{ "name": "tests", "private": true }\n',
      "tests/schema.test.ts": `import { serial } from "orm/mysql-core";

export const id = serial("id").primaryKey();
`,
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    assert.deepEqual(refLines(root, "f.path = 'tests/schema.test.ts' AND r.kind = 'call'"), [
      "tests/schema.test.ts:3 .serial imported orm/src/mysql-core/columns.serial",
      'tests/schema.test.ts:3 serial("id").primaryKey imported orm/src/mysql-core/columns.SerialBuilder.primaryKey',
    ]);
  });
});

describe("magellan: locals assigned a method's result (Java)", () => {
  it("`var c = s.dial(a)` and `var t = Server.create().dial(b)` hold dial's return type; a type the declaration writes wins", async () => {
    const root = writeTree(tempDir("magellan-chain-locals-java-"), {
      "src/main/java/org/ex/M.java": `package org.ex;

class Conn { void close() {} }
class Other { void close() {} }
class Base { void close() {} }
class Server {
    Conn dial(String a) { return new Conn(); }
    static Server create() { return new Server(); }
}

public class M {
    void run(Server s) {
        var c = s.dial("x");
        c.close();
        var t = Server.create().dial("y");
        t.close();
        Base b = new Base();
        b.close();
    }
}
`,
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    assert.deepEqual(refLines(root, "r.kind = 'call' AND r.name = 'close'"), [
      "src/main/java/org/ex/M.java:14 c.close exact org.ex.Conn.close",
      "src/main/java/org/ex/M.java:16 t.close exact org.ex.Conn.close",
      "src/main/java/org/ex/M.java:18 b.close exact org.ex.Base.close",
    ]);
  });
});

describe("magellan: what a TypeScript type written around another says", () => {
  it("`Partial<Item>`, `Readonly<Item>` and `Pick<Item, 'k'>` are Item's members; `ReturnType<...>` and a return type that is a type parameter say nothing (no library member claimed)", async () => {
    const root = writeTree(tempDir("magellan-ts-wrapped-"), {
      "src/model.ts": `export class Item {
  save(): void {}
  name = "";
}
export class Other {
  save(): void {}
}
export class Repository<Entity> {
  create(): Entity {
    return {} as Entity;
  }
}
export function make(): Item {
  return new Item();
}
`,
      "src/use.ts": `import { Item, Repository, make } from "./model";

export function run(a: Partial<Item>, b: Readonly<Item>, c: Pick<Item, "save">, d: ReturnType<typeof make>, repo: Repository<Item>) {
  a.save();
  b.save();
  c.save();
  d.save();
  repo.create().save();
}
`,
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const got = refLines(root, "f.path = 'src/use.ts' AND r.kind = 'call' AND r.name = 'save'");
    assert.deepEqual(got.slice(0, 3), ["src/use.ts:4 a.save imported src/model.Item.save", "src/use.ts:5 b.save imported src/model.Item.save", "src/use.ts:6 c.save imported src/model.Item.save"]);
    // d and repo.create(): the other rules' guesses between Item.save and Other.save, never `unresolved` as a library's.
    for (const l of got.slice(3)) assert.doesNotMatch(l, / unresolved /, l);
    assert.equal(got.length, 5);
  });
});
