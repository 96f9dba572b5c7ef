import type { Diagnostic } from "../../../contract/schema.js";
import type { LanguageId } from "../../../lang/registry.js";

/** The NAME's span in the definition. */
export interface RenameTarget {
  file: string;
  language: LanguageId;
  name: string;
  byte_start: number;
  byte_end: number;
  symbol_id?: string;
  /** magellan's kind (`Macro`, `Method`, …): what a server's refusal is about. */
  kind?: string;
}

export interface RenameRequest {
  root: string;
  target: RenameTarget;
  newName: string;
  allowHeuristic?: boolean;
  /** Earlier batch steps' bytes, by root-relative (or absolute) path. */
  overlays?: Map<string, Uint8Array>;
}

export type Evidence = "language_server" | "exact" | "imported" | "heuristic";

export interface RenameLocation {
  /** root-relative, '/'-separated */
  file: string;
  byte_start: number;
  byte_end: number;
  old_text: string;
  new_text: string;
  evidence: Evidence;
}

export interface RenamePlan {
  engine: string;
  engine_version?: string;
  locations: RenameLocation[];
  diagnostics: Diagnostic[];
  /** How long the engine took, split so a warm service can be told from a cold one. */
  timing?: { total_ms: number; startup_ms?: number; check_ms?: number; warm: boolean };
}
