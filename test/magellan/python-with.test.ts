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

// httpx writes the pre-3.11 spelling of Self: `T = typing.TypeVar("T", bound="Client")` and
// `def __enter__(self: T) -> T`; its tests' 23 `client.send(...)` inside `with httpx.Client() as
// client:` were `ambiguous` between Client.send and AsyncClient.send.
const TYPEVAR_TREE: Record<string, string> = {
  "web/__init__.py": "from ._client import Client, AsyncClient\n",
  "web/_client.py":
    "import typing\n\nT = typing.TypeVar(\"T\", bound=\"Client\")\nU = typing.TypeVar(\"U\", bound=\"AsyncClient\")\n\n\n" +
    "class Client:\n    def __enter__(self: T) -> T:\n        return self\n    def __exit__(self, *a) -> None:\n        pass\n" +
    "    def copy(self: T, **kw: typing.Any) -> T:\n        return self\n    def send(self, request):\n        return request\n\n\n" +
    "class AsyncClient:\n    async def __aenter__(self: U) -> U:\n        return self\n    async def __aexit__(self, *a) -> None:\n        pass\n" +
    "    @classmethod\n    def make(cls: typing.Type[U]) -> U:\n        return cls()\n    @staticmethod\n    def wrap(value: U) -> U:\n        return value\n" +
    "    async def send(self, request):\n        return request\n",
  "tests/test_client.py":
    "import web\n\n\ndef test_send():\n    with web.Client() as client:\n        client.send(1)\n\n\ndef test_copy():\n    web.Client().copy(a=1).send(2)\n\n\n" +
    "async def test_async():\n    async with web.AsyncClient() as client:\n        await client.send(3)\n\n\ndef test_make():\n    web.AsyncClient.make().send(4)\n",
};

it("a method whose self (or cls: Type[T]) is annotated with the TypeVar it returns returns its receiver's class", async () => {
  const root = tempDir("magellan-pywith-typevar-");
  writeTree(root, TYPEVAR_TREE);
  assert.equal((await mg(root, ["index"])).r.code, 0);
  const callers = async (name: string): Promise<string[]> =>
    ((await mg(root, ["callers", "--name", name])).env.data.references ?? []).map((r) => `${r.span.file_path}:${r.span.start_line} ${r.resolution}`);
  assert.deepEqual(await callers("Client.send"), ["tests/test_client.py:6 imported", "tests/test_client.py:10 imported"]);
  assert.deepEqual(await callers("AsyncClient.send"), ["tests/test_client.py:15 imported", "tests/test_client.py:19 imported"]);
});
