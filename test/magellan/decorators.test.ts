/**
 * A decorator runs where the definition it decorates is made (`@register` over `def handler()` is
 * `handler = register(handler)` in the module body), not when that definition runs. The
 * definition's span includes its decorators, so their calls were the decorated function's own:
 * `callees handler` listed `register`, `paths main -> audit` went through it, and click's
 * `reachable --symbol cli` pulled in its decorator machinery through `@click.pass_context`.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { tempDir, writeTree } from "../support/run.js";
import { mg, withIndex } from "./support.js";

/** `name line caller` of each reference named in `names`, in file order ("-": no caller). */
function callersOf(root: string, names: string[]): string[] {
  return withIndex(
    root,
    (d) =>
      d
        .prepare(
          `SELECT f.path || ':' || r.start_line || ' ' || r.name || ' ' || coalesce(c.name, '-') FROM refs r JOIN files f ON f.id = r.file_id
           LEFT JOIN symbols c ON c.symbol_id = r.caller_symbol_id WHERE r.name IN (SELECT value FROM json_each(?)) AND r.kind <> 'import' ORDER BY f.path, r.byte_start`,
        )
        .pluck()
        .all(JSON.stringify(names)) as string[],
  );
}

it("Python: a decorator's calls are the enclosing scope's (the module, the class, the outer function), not the decorated function's", async () => {
  const root = writeTree(tempDir("magellan-decorators-py-"), {
    "m.py": `REGISTRY = []


def register(fn):
    REGISTRY.append(fn)
    audit(fn)
    return fn


def audit(fn):
    print("registered", fn)


def route(path):
    return register


@register
def handler():
    return 42


class Views:
    @route("/list")
    def index(self):
        return handler()


def outer():
    @register
    def inner():
        return 1

    return inner


def main():
    return handler()
`,
  });
  assert.equal((await mg(root, ["index"])).r.code, 0);
  assert.deepEqual(callersOf(root, ["register", "route"]), ["m.py:15 register route", "m.py:18 register -", "m.py:24 route Views", "m.py:30 register outer"]);
  const callees = await mg(root, ["callees", "--name", "handler"]);
  assert.equal(callees.r.code, 0, callees.r.stdout);
  assert.deepEqual(callees.env.data.references, []);
  const paths = await mg(root, ["paths", "--from", "main", "--to", "audit"]);
  assert.equal(paths.env.data.count, 0, paths.r.stdout);
});

it("TypeScript: class, field, method and parameter decorators are the scope around the class's or the class's, not the decorated member's", async () => {
  const root = writeTree(tempDir("magellan-decorators-ts-"), {
    "src/decorators.ts": `export function Component(o: object) {
  return (c: unknown) => c;
}
export function Input() {
  return (t: unknown, k: string) => {};
}
export function Inject(t: unknown) {
  return (t: unknown, k: unknown, i: number) => {};
}
export function Get(p: string) {
  return (t: unknown, k: string) => {};
}
export const TOKEN = 1;
`,
    "src/widget.ts": `import { Component, Get, Inject, Input, TOKEN } from "./decorators";

@Component({ selector: "w" })
class Widget {
  @Input() name = "";
  constructor(@Inject(TOKEN) private readonly id: number, @Inject(TOKEN) other: number) {}
  @Get("/")
  list(): number {
    return 1;
  }
}

export function make(): Widget {
  return new Widget(1, 2);
}
`,
  });
  assert.equal((await mg(root, ["index"])).r.code, 0);
  assert.deepEqual(callersOf(root, ["Component", "Input", "Inject", "Get"]), [
    "src/widget.ts:3 Component -",
    "src/widget.ts:5 Input Widget",
    "src/widget.ts:6 Inject Widget",
    "src/widget.ts:6 Inject Widget",
    "src/widget.ts:7 Get Widget",
  ]);
});
