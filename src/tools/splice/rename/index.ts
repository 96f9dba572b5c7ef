/**
 * Rename engines behind one function, chosen per language: the TypeScript language service for
 * TypeScript/JavaScript, a language server (pyright, gopls, clangd, rust-analyzer) where one is
 * installed, else magellan's resolved references labelled with their evidence. Every engine
 * returns locations on the bytes it planned against (overlays first); splice applies them.
 */
import { renameError } from "./codes.js";
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

export async function planRename(req: RenameRequest): Promise<RenamePlan> {
  const { target, newName } = req;
  assertIdentifier(target.language, newName);
  if (newName === target.name) {
    throw renameError("same_name", `'${target.name}' already has that name`, "Give a different new name.", { usage: true, file: target.file });
  }
  const sources = new Sources(req.root, req.overlays);
  switch (target.language) {
    case "typescript":
    case "tsx":
    case "javascript":
      return renameTypeScript(sources, target, newName);
    default: {
      const server = serverFor(target.language, sources.root, sources.abs(target.file));
      if ("absent" in server) return renameFromIndex(sources, target, newName, req.allowHeuristic ?? false, [fallbackNote(target.language, server.absent)]);
      return renameWithServer(sources, target, newName, server);
    }
  }
}
