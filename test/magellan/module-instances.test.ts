/**
 * A module-level instance, `app = Flask(__name__)` or `export const app = new Hono()`, says whose
 * member `app.route()` is: in its own file (where no local of that name is in force) and in the
 * files that import it. Shaped on flask's examples/javascript, where js_example/__init__.py makes
 * the app and views.py does `from . import app` then `@app.route(...)`: every such call was
 * unresolved, and tests' `app.test_client()` too.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { tempDir, writeTree } from "../support/run.js";
import { assertIncrementalMatchesRebuild, mg, refLines } from "./support.js";

const PYTHON = {
  "src/web/__init__.py": "",
  "src/web/scaffold.py": `class Scaffold:
    def route(self, rule):
        def wrap(f):
            return f
        return wrap


def route(rule):
    return rule
`,
  "src/web/app.py": `from .scaffold import Scaffold


class Flask(Scaffold):
    def test_client(self):
        return None

    def run(self):
        pass
`,
  "examples/shop/shop/__init__.py": `import logging

from web.app import Flask

app = Flask(__name__)
log = logging.getLogger(__name__)


@app.route("/")
def index():
    log.info("index")
    return "ok"


def other(app):
    app.run()

from shop import views  # noqa: E402
`,
  "examples/shop/shop/views.py": `from . import app
from . import log


@app.route("/buy")
def buy():
    log.info("buy")
    return "bought"
`,
  "examples/shop/tests/conftest.py": `from shop import app


def fixture_app():
    app.testing = True
    return app.test_client()
`,
  "examples/shop/shop/info.py": `def info(message):
    return message
`,
};

/** Two classes with a method of one name: which of them a call reaches says whose type was read. */
const ENGINES = `class Engine:
    def start(self):
        pass


class Motor:
    def start(self):
        pass
`;

describe("magellan: members through a module-level instance", () => {
  it("Python: `app = Flask(...)` types app.route() in its file and through `from . import app`; a library instance's members are outside", async () => {
    const root = writeTree(tempDir("magellan-module-instance-py-"), PYTHON);
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const got = refLines(root, "r.qualifier IN ('app', 'log') AND r.kind = 'call'");
    assert.deepEqual(got, [
      "examples/shop/shop/__init__.py:9 app.route imported web.scaffold.Scaffold.route",
      "examples/shop/shop/__init__.py:11 log.info unresolved -",
      // The parameter `app` of other() is no Flask: left to the other rules, not Flask.run.
      ...got.filter((l) => l.startsWith("examples/shop/shop/__init__.py:16 ")),
      "examples/shop/shop/views.py:5 app.route imported web.scaffold.Scaffold.route",
      "examples/shop/shop/views.py:7 log.info unresolved -",
      "examples/shop/tests/conftest.py:6 app.test_client imported web.app.Flask.test_client",
    ]);
    assert.notEqual(got.find((l) => l.startsWith("examples/shop/shop/__init__.py:16 ")), "examples/shop/shop/__init__.py:16 app.run imported web.app.Flask.run");

    // The instance made of another type: its importers' calls follow, incrementally as on a rebuild.
    writeFileSync(join(root, "examples/shop/shop/__init__.py"), PYTHON["examples/shop/shop/__init__.py"].replace("app = Flask(__name__)", "app = Scaffold()").replace("from web.app import Flask", "from web.scaffold import Scaffold"));
    await assertIncrementalMatchesRebuild(root, "retyped");
    assert.deepEqual(refLines(root, "r.qualifier = 'app' AND f.path = 'examples/shop/tests/conftest.py' AND r.kind = 'call'"), ["examples/shop/tests/conftest.py:6 app.test_client unresolved -"]);
  });

  it("Python: a name assigned twice with different types, or once without one, has no type", async () => {
    const root = writeTree(tempDir("magellan-module-instance-py2-"), {
      "pkg/__init__.py": "",
      "pkg/a.py": "class Widget:\n    def go(self):\n        pass\n\n\nclass Gadget:\n    def go(self):\n        pass\n",
      "pkg/main.py": "from pkg.a import Widget, Gadget\n\nx = Widget()\nx = Gadget()\nx.go()\n\ny = Widget()\ny = make()\ny.go()\n\nz = Gadget()\nz.go()\n",
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const got = refLines(root, "r.name = 'go' AND r.kind = 'call'");
    assert.equal(got.length, 3, JSON.stringify(got));
    assert.equal(got[2], "pkg/main.py:12 z.go imported pkg.a.Gadget.go");
    // x and y: the other rules' answer, not one type's member for sure.
    for (const l of got.slice(0, 2)) assert.doesNotMatch(l, / (exact|imported) /, l);
  });

  it("TypeScript: `export const app = new Router()` types app.get() in its file and in importers; a `new` of a library class is outside", async () => {
    const root = writeTree(tempDir("magellan-module-instance-ts-"), {
      "package.json": '{ "name": "web", "dependencies": { "events": "3" } }\n',
      "src/router.ts": "export class Router {\n  get(path: string): this { return this; }\n  on(): void {}\n}\n",
      "src/emitter.ts": "export class Emitter {\n  on(): void {}\n}\n",
      "src/app.ts": `import { EventEmitter } from "events";
import { Router } from "./router";

export const app = new Router();
export const bus = new EventEmitter();
app.get("/");
bus.on();
`,
      "src/routes.ts": `import { app, bus } from "./app";

app.get("/x");
app.on();
bus.on();
`,
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    assert.deepEqual(refLines(root, "r.qualifier IN ('app', 'bus') AND r.kind = 'call'"), [
      "src/app.ts:6 app.get imported src/router.Router.get",
      "src/app.ts:7 bus.on unresolved -",
      "src/routes.ts:3 app.get imported src/router.Router.get",
      "src/routes.ts:4 app.on imported src/router.Router.on",
      "src/routes.ts:5 bus.on unresolved -",
    ]);
  });

  it("Python and TypeScript: `x = make()` is of make's declared return type, in a function and at module level, also through an import", async () => {
    const root = writeTree(tempDir("magellan-returned-type-"), {
      "pkg/__init__.py": "",
      "pkg/engine.py": `from typing import Optional


${ENGINES}

def make_engine() -> Engine:
    return Engine()


def maybe_engine() -> Optional[Engine]:
    return None


def make_list() -> list:
    return []


def make_any():
    return Motor()
`,
      "pkg/main.py": `from pkg.engine import make_engine, maybe_engine, make_list, make_any

engine = make_engine()


def run():
    e = make_engine()
    e.start()
    m = maybe_engine()
    m.start()
    items = make_list()
    items.append(1)
    a = make_any()
    a.start()
    engine.start()
`,
      "pkg/use.py": "from pkg.main import engine\n\nengine.start()\n",
      "src/store.ts": "export class Store {\n  get(): void {}\n}\nexport class Cache {\n  get(): void {}\n}\nexport function makeStore(): Store {\n  return new Store();\n}\n",
      "src/app.ts": `import { makeStore } from "./store";

export const store = makeStore();
store.get();

export function handler(): void {
  const s = makeStore();
  s.get();
}
`,
      "src/other.ts": 'import { store } from "./app";\n\nstore.get();\n',
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const got = refLines(root, "r.kind = 'call' AND r.qualifier IS NOT NULL AND r.name IN ('start', 'append', 'get')");
    const at = (prefix: string) => got.find((l) => l.startsWith(prefix));
    assert.equal(at("pkg/main.py:8 "), "pkg/main.py:8 e.start imported pkg.engine.Engine.start", JSON.stringify(got));
    assert.equal(at("pkg/main.py:10 "), "pkg/main.py:10 m.start imported pkg.engine.Engine.start");
    // A builtin return type: its members are outside.
    assert.equal(at("pkg/main.py:12 "), "pkg/main.py:12 items.append unresolved -");
    // No declared return type: the other rules' answer, not Engine's.
    assert.doesNotMatch(at("pkg/main.py:14 ") ?? "", /Engine/);
    assert.equal(at("pkg/main.py:15 "), "pkg/main.py:15 engine.start imported pkg.engine.Engine.start");
    assert.equal(at("pkg/use.py:3 "), "pkg/use.py:3 engine.start imported pkg.engine.Engine.start");
    assert.equal(at("src/app.ts:4 "), "src/app.ts:4 store.get imported src/store.Store.get");
    assert.equal(at("src/app.ts:8 "), "src/app.ts:8 s.get imported src/store.Store.get");
    assert.equal(at("src/other.ts:3 "), "src/other.ts:3 store.get imported src/store.Store.get");

    // make_engine returns a Motor now: every use follows, incrementally as on a rebuild.
    writeFileSync(join(root, "pkg/engine.py"), readFileSync(join(root, "pkg/engine.py"), "utf8").replace("def make_engine() -> Engine:\n    return Engine()", "def make_engine() -> Motor:\n    return Motor()"));
    await assertIncrementalMatchesRebuild(root, "returns-motor");
    assert.deepEqual(
      refLines(root, "r.kind = 'call' AND r.qualifier IN ('e', 'engine')"),
      ["pkg/main.py:8 e.start imported pkg.engine.Motor.start", "pkg/main.py:15 engine.start imported pkg.engine.Motor.start", "pkg/use.py:3 engine.start imported pkg.engine.Motor.start"],
    );
  });

  it("Python: `self.x = ...` in a class's methods types `self.x.m()` in that class, when every assignment agrees", async () => {
    const root = writeTree(tempDir("magellan-self-attrs-"), {
      "pkg/__init__.py": "",
      "pkg/m.py": `import threading


${ENGINES}

def make_motor() -> Motor:
    return Motor()


class Car:
    def __init__(self, engine: Engine):
        self.engine = engine
        self.spare = Engine()
        self.motor: Motor = Motor()
        self.made = make_motor()
        self.event = threading.Event()
        self.either = Engine()
        self.later = None

    def swap(self):
        self.either = Motor()
        self.later = Engine()

    def go(self):
        self.engine.start()
        self.spare.start()
        self.motor.start()
        self.made.start()
        self.event.set()
        self.either.start()
        self.later.start()


class Boat:
    def __init__(self):
        self.engine = Motor()

    def go(self):
        self.engine.start()
`,
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    const got = refLines(root, "r.kind = 'call' AND r.qualifier LIKE 'self.%'");
    assert.deepEqual(got.slice(0, 5), [
      "pkg/m.py:33 self.engine.start exact pkg.m.Engine.start",
      "pkg/m.py:34 self.spare.start exact pkg.m.Engine.start",
      "pkg/m.py:35 self.motor.start exact pkg.m.Motor.start",
      "pkg/m.py:36 self.made.start exact pkg.m.Motor.start",
      // threading.Event: a library type's member.
      "pkg/m.py:37 self.event.set unresolved -",
    ]);
    // Assigned two types, or None and then a type: no one type, the other rules' answer.
    for (const l of got.slice(5, 7)) assert.match(l, / (ambiguous|heuristic) /, l);
    // Another class's attribute of the same name is its own.
    assert.equal(got[7], "pkg/m.py:47 self.engine.start exact pkg.m.Motor.start");
  });

  it("Go: `s := NewServer()` and `o, err := Open()` are of the function's (first) result type; a library package's function's a library type", async () => {
    const root = writeTree(tempDir("magellan-returned-go-"), {
      "go.mod": "module example.com/srv\n\ngo 1.22\n",
      "srv/types.go": "package srv\n\ntype Server struct{}\n\nfunc (s *Server) Start() error { return nil }\n\ntype Client struct{}\n\nfunc (c *Client) Start() error { return nil }\n\nfunc NewServer() *Server { return &Server{} }\n\nfunc Open(addr string) (*Server, error) { return &Server{}, nil }\n",
      "srv/run.go": `package srv

import "net/http"

func run() {
	s := NewServer()
	s.Start()
	o, err := Open(":80")
	o.Start()
	_ = err
	r, _ := http.NewRequest("GET", "/", nil)
	r.Clone(nil)
}
`,
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    assert.deepEqual(refLines(root, "r.kind = 'call' AND r.qualifier IN ('s', 'o', 'r')"), [
      "srv/run.go:7 s.Start imported srv.Server.Start",
      "srv/run.go:9 o.Start imported srv.Server.Start",
      "srv/run.go:12 r.Clone unresolved -",
    ]);
  });

  it("Python: a returned type whose bases change re-resolves the calls on the value incrementally, as a rebuild does", async () => {
    const engine = `class Base:
    def start(self):
        pass


class Other:
    def start(self):
        pass


class Motor(Base):
    pass


def make_motor() -> Motor:
    return Motor()
`;
    const root = writeTree(tempDir("magellan-returned-bases-"), {
      "pkg/__init__.py": "",
      "pkg/engine.py": engine,
      "pkg/main.py": "from pkg.engine import make_motor\n\n\ndef run():\n    m = make_motor()\n    m.start()\n",
    });
    assert.equal((await mg(root, ["index"])).r.code, 0);
    assert.deepEqual(refLines(root, "r.kind = 'call' AND r.qualifier = 'm'"), ["pkg/main.py:6 m.start imported pkg.engine.Base.start"]);
    // Neither the function nor the call changed: only what the returned type inherits.
    writeFileSync(join(root, "pkg/engine.py"), engine.replace("class Motor(Base):", "class Motor(Other):"));
    await assertIncrementalMatchesRebuild(root, "motor-rebased");
    assert.deepEqual(refLines(root, "r.kind = 'call' AND r.qualifier = 'm'"), ["pkg/main.py:6 m.start imported pkg.engine.Other.start"]);
  });
});

