/** One dependency row as stored, and what resolving it gives. */
export interface DepRow {
  id: number;
  file_id: number;
  kind: string;
  form: string;
  spec: string | null;
  pattern: string | null;
  text: string;
  names: string | null;
  type_only: number;
  path_attr: string | null;
  line: number;
}

/**
 * resolved: edges to repository files; external: a library, the standard library or the
 * platform (not an error); unresolved: a repository path that names no indexed file, or a
 * dynamic specifier that could not be computed (counted and sampled in diagnostics);
 * asset: a non-code file (JSON, CSS, text) that is not indexed; package: Java's own package line.
 */
export type DepStatus = "resolved" | "external" | "unresolved" | "asset" | "package";

export interface DepOutcome {
  status: DepStatus;
  targets: number[];
  /** Targets found through guessed include paths (no compile_commands.json). */
  guessed?: boolean;
}

export const EXTERNAL: DepOutcome = { status: "external", targets: [] };
export const UNRESOLVED: DepOutcome = { status: "unresolved", targets: [] };

export function outcome(targets: number[], orElse: DepOutcome, guessed = false): DepOutcome {
  return targets.length > 0 ? { status: "resolved", targets: [...new Set(targets)], ...(guessed ? { guessed } : {}) } : orElse;
}

/** Non-code files a module can import (bundlers, resolveJsonModule, include_str!). */
export const ASSET = /\.(json|css|scss|sass|less|svg|png|jpe?g|gif|webp|html?|txt|md|ya?ml|toml|wasm|graphql|gql|bin|csv)$/i;
