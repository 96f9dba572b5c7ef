/**
 * Python's `with X() as v` binds v to what `X().__enter__()` returns: X when its `__enter__`
 * returns `self` (written `-> Self`, `-> "X"`, or an unannotated `return self`), the type it
 * declares otherwise, nothing when it says nothing. And a call is never tied to a class attribute
 * (a field) while a method of that name exists. Shaped on psf/requests, where api.py's
 * `with sessions.Session() as session: return session.request(...)` was a `heuristic` call of the
 * annotation `Response.request` of models.py. Real tree-sitter, real SQLite.
 */
import assert from "node:assert/strict";
import { it } from "node:test";
import { tempDir, writeTree } from "../support/run.js";
import { mg } from "./support.js";

const TREE: Record<string, string> = {
  "pkg/__init__.py": "",
  "pkg/models.py": "class Response:\n    request: object\n",
  "pkg/sessions.py":
    "class Session:\n    def __enter__(self):\n        return self\n    def __exit__(self, *a):\n        pass\n    def request(self, method, url):\n        return method + url\n\n" +
    "class Typed:\n    def __enter__(self) -> \"Typed\":\n        return self\n    def request(self, method, url):\n        return url\n\n" +
    "class Conn:\n    def request(self, method, url):\n        return method\n\n" +
    "class Pool:\n    def __enter__(self) -> Conn:\n        return Conn()\n    def request(self, method, url):\n        return url\n",
  "pkg/api.py":
    "from .models import Response\nfrom . import sessions\n\n" +
    "def request(method, url):\n    with sessions.Session() as session:\n        return session.request(method, url)\n\n" +
    "def typed(method, url):\n    with sessions.Typed() as t:\n        return t.request(method, url)\n\n" +
    "def pooled(method, url):\n    with sessions.Pool() as conn:\n        return conn.request(method, url)\n",
  "pkg/other.py": "class Other:\n    def send(self):\n        pass\n",
  "pkg/use.py": "from .models import Response\n\n\nclass Holder:\n    send: object\n\n\ndef go(x):\n    return x.send()\n",
};

it("with X() as v: v is what X's __enter__ returns, and a call is no field's while a method of the name exists", async () => {
  const root = tempDir("magellan-pywith-");
  writeTree(root, TREE);
  assert.equal((await mg(root, ["index"])).r.code, 0);
  const callees = async (name: string, callee: string): Promise<string[]> =>
    ((await mg(root, ["callees", "--name", name])).env.data.references ?? [])
      .filter((r) => r.referenced_symbol === callee)
      .map((r) => `${r.resolution} ${(r as { target_display_fqn?: string }).target_display_fqn ?? "-"}`);
  assert.deepEqual(await callees("pkg.api.request", "request"), ["imported pkg.sessions.Session.request"]);
  assert.deepEqual(await callees("pkg.api.typed", "request"), ["imported pkg.sessions.Typed.request"]);
  assert.deepEqual(await callees("pkg.api.pooled", "request"), ["imported pkg.sessions.Conn.request"]);
  const callers = (await mg(root, ["callers", "--name", "Session.request"])).env.data.references ?? [];
  assert.deepEqual(callers.map((r) => `${r.span.file_path}:${r.span.start_line}`), ["pkg/api.py:6"]);
  // x's type is unknown; the only `send` in reach is a field, and Other.send is a method.
  assert.deepEqual(await callees("pkg.use.go", "send"), ["ambiguous -"]);
});
