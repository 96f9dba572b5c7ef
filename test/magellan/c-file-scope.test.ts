/**
 * C: a macro defined inside a struct's body and an enumerator of a named enum are names of the
 * file scope, not members. tmux defines its flags beside their field (`struct window { int flags;
 * #define WINDOW_BELL 0x1 ... }`) and names its enums (`enum cmd_retval { CMD_RETURN_NORMAL = 0 }`):
 * every `return (CMD_RETURN_NORMAL);` (184) and flag read (4,793 references in all) was unresolved.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { indexed, mg } from "./support.js";

interface Ref {
  span: { file_path: string; start_line: number };
  reference_kind: string;
  resolution: string;
  target_symbol_id?: string;
}

test("macros inside a struct body and a named enum's enumerators resolve from another file", async () => {
  const root = await indexed("c-file-scope");
  for (const [name, line] of [
    ["WINDOW_BELL", 7],
    ["CMD_RETURN_ERROR", 8],
    ["WINDOW_ALERTFLAGS", 9],
    ["LAYOUT_LEFTRIGHT", 10],
    ["CMD_RETURN_WAIT", 11],
    ["CMD_RETURN_NORMAL", 12],
  ] as const) {
    const { r, env } = await mg(root, ["refs", "--name", name]);
    assert.equal(r.code, 0, r.stdout);
    const refs = (env.data as unknown as { references: Ref[] }).references;
    const use = refs.find((x) => x.span.file_path === "alerts.c" && x.span.start_line === line);
    assert.ok(use && use.target_symbol_id !== undefined && use.resolution !== "ambiguous", `${name}: ${JSON.stringify(refs)}`);
  }
  // The macro's own body names its siblings (`(WINDOW_BELL|WINDOW_ACTIVITY|WINDOW_SILENCE)`): still
  // no struct member is read through `w->`.
  const { env } = await mg(root, ["refs", "--name", "flags"]);
  const flags = (env.data as unknown as { references: Ref[] }).references;
  assert.ok(flags.some((x) => x.span.file_path === "alerts.c" && x.span.start_line === 7 && x.target_symbol_id !== undefined), JSON.stringify(flags));
});
