/**
 * Rename engines behind one function, chosen per language: the TypeScript language service for
 * TypeScript/JavaScript, a language server (pyright, gopls, clangd, rust-analyzer) where one is
 * installed, else magellan's resolved references labelled with their evidence. Every engine
 * returns locations on the bytes it planned against (overlays first); splice applies them.
 */
import { renameError, renameNote } from "./codes.js";
import { assertIdentifier } from "./identifiers.js";
import { Sources } from "./sources.js";
import { renameTypeScript } from "./typescript.js";
import { fallbackNote, renameWithServer, serverFor } from "./lsp.js";
import { renameFromIndex } from "./fallback.js";
import type { RenamePlan, RenameRequest } from "./types.js";

export type { Evidence, RenameLocation, RenamePlan, RenameRequest, RenameTarget } from "./types.js";
export { RENAME_CODES } from "./codes.js";
export { disposeTypeScriptServices } from "./typescript.js";
export { disposeLanguageServers, setLanguageServerReuse } from "./lsp.js";

/**
 * A JavaScript private member's name is `#` and an identifier (ky's `#calculateDelay`); its new
 * name must be one too. `--to '#computeDelay'` was refused as no identifier, and `--to
 * computeDelay` renamed every `this.#calculateDelay` to a public member: a rename that changed the
 * member's visibility without a word.
 */
function assertNewName(target: RenameRequest["target"], newName: string): void {
  const js = target.language === "typescript" || target.language === "tsx" || target.language === "javascript";
  const wasPrivate = js && target.name.startsWith("#");
  if (!js || (!wasPrivate && !newName.startsWith("#"))) return assertIdentifier(target.language, newName);
  if (!wasPrivate) {
    throw renameError("invalid_identifier", `'${newName}' is a private name (#…) and '${target.name}' is not private: a rename keeps a member's visibility`, `Give a name without '#' (for example '${newName.slice(1)}').`, { usage: true, file: target.file });
  }
  if (!newName.startsWith("#")) {
    throw renameError("invalid_identifier", `'${target.name}' is a private member: its new name starts with '#' too, or every use would become a public member '${newName}'`, `Give '#${newName}'.`, { usage: true, file: target.file });
  }
  // (`#default` and `#delete` are private names: a reserved word after `#` is one.)
  assertIdentifier(target.language, newName.slice(1), true);
}

/**
 * Files a C or C++ build hands the linker, which name exported symbols by their spelling: a
 * Windows module-definition file's EXPORTS (`.def`), a GNU version script or export list (`.map`,
 * `.ver`, `.version`, `.sym`, `.syms`, `.exp`, `.exports`), a linker script (`.ld`, `.lds`). No
 * engine reads them: jansson's rename of json_array_extend left src/jansson.def on the old name,
 * and an MSVC build of the renamed library fails to link.
 */
const LINKER_FILE = /\.(?:def|map|ver|version|syms?|exp|exports|lds?)$/i;
const LINKER_FILE_LIMIT = 20;

function withLinkerMentions(sources: Sources, target: RenameRequest["target"], plan: RenamePlan): RenamePlan {
  if (target.language !== "c" && target.language !== "cpp") return plan;
  // (A `.map` that is JSON is a JavaScript source map, not a version script.)
  const { files: found, capped } = sources.naming(target.name, (rel) => LINKER_FILE.test(rel), LINKER_FILE_LIMIT, (t) => !/^\s*\{\s*"/.test(t));
  if (found.length === 0) return plan;
  const files = found.map((f) => sources.rel(f));
  plan.diagnostics.push(
    renameNote(
      "unsearched_mentions",
      `${files.length}${capped ? "+" : ""} linker file(s) name '${target.name}' and were left as they are (no rename engine reads them): ${files.join(", ")}. If they export this symbol, the renamed library no longer links against them; rename it there with splice edit or llmtransform.`,
      "warning",
    ),
  );
  return plan;
}

export async function planRename(req: RenameRequest): Promise<RenamePlan> {
  const { target, newName } = req;
  assertNewName(target, newName);
  if (newName === target.name) {
    throw renameError("same_name", `'${target.name}' already has that name`, "Give a different new name.", { usage: true, file: target.file });
  }
  const sources = new Sources(req.root, req.overlays);
  switch (target.language) {
    case "typescript":
    case "tsx":
    case "javascript":
      return renameTypeScript(sources, target, newName, (why) => renameFromIndex(sources, target, newName, req.allowHeuristic ?? false, [fallbackNote(target.language, why)]));
    default: {
      const server = serverFor(target.language, sources.root, sources.abs(target.file));
      if ("absent" in server) return withLinkerMentions(sources, target, await renameFromIndex(sources, target, newName, req.allowHeuristic ?? false, [fallbackNote(target.language, server.absent)]));
      return withLinkerMentions(sources, target, await renameWithServer(sources, target, newName, server));
    }
  }
}
