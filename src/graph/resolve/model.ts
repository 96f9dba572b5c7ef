/**
 * The rows and outcomes resolution works on: a candidate symbol, a reference, a file's context,
 * one name's candidates, and what a reference resolved to.
 */

export type Resolution = "exact" | "imported" | "heuristic" | "ambiguous" | "unresolved";

export interface SymRow {
  symbol_id: string;
  file_id: number;
  path: string;
  name: string;
  kind_normalized: string;
  parent: string | null;
  parent_symbol_id: string | null;
  parent_kind: string | null;
  flags: string | null;
  display_fqn: string;
  /** Java and C++ callables: the arguments a call may pass (`2`, `1-3`, `2+`). */
  arity: string | null;
  /** Its file's language. */
  language: string;
}

/** A SymRow as candidatesSql's columns, in order. */
export type SymTuple = [string, number, string, string, string, string | null, string | null, string | null, string | null, string, string | null, string];

export interface RefRow {
  id: number;
  file_id: number;
  name: string;
  kind: string;
  qualifier: string | null;
  caller_symbol_id: string | null;
  /** Arguments of a Java or C++ call (null: not known, or another kind of reference). */
  arity: number | null;
  /** The declared type of the parameter or local variable the qualifier names (null: none known). */
  receiver_type: string | null;
}

/** The columns of a RefRow, for the statements that read them. */
export const REF_COLUMNS = "id, file_id, name, kind, qualifier, caller_symbol_id, arity, receiver_type";

export interface ImportInfo {
  source: string;
  names: { name: string; alias?: string }[];
}

export interface ImportIndex {
  /** local name -> the import that binds it and the name it has in its module */
  bound: Map<string, { im: ImportInfo; name: string }>;
  /** first segment of a qualifier -> the import that names a module (or a member of one) */
  heads: Map<string, { im: ImportInfo; named?: string }>;
  wildcards: ImportInfo[];
}

export interface FileCtx {
  id: number;
  path: string;
  language: string;
  imports: ImportInfo[];
  /** symbol_id -> parent_symbol_id, for the scope chain of a caller */
  parents: Map<string, string | null>;
  /** symbol_id -> kind_normalized of the file's symbols */
  kinds: Map<string, string>;
  /** symbol_id -> display_fqn of the file's modules (Rust `self::` and `super::` paths) */
  modules: Map<string, string>;
  /** symbol_id -> the types it extends or implements, as written, of the file's types that have any */
  bases: Map<string, string[]>;
  /** symbol_id -> [receiver name, receiver type] of the file's Go methods that name their receiver */
  receivers: Map<string, [string, string]>;
  /** C++: symbol_id -> the class of the file's member functions defined outside it (`void T::m() {}`) */
  owners: Map<string, string>;
  /** Java: the package the file declares (its classes share it with other source roots' files). */
  javaPackage?: string;
  /** This file and the files its imports resolve to. */
  reach?: Set<number>;
  /** Java: the files of the file's package, in every source root. */
  packageFiles?: Set<number>;
  index?: ImportIndex;
}

export interface Outcome {
  target: string | null;
  how: Resolution;
  candidates: string[] | null;
}

export const UNRESOLVED: Outcome = { target: null, how: "unresolved", candidates: null };
export const NO_IDS = new Set<string>();
export const AMBIGUOUS: Outcome = { target: null, how: "ambiguous", candidates: null };

export interface NameEntry {
  all: SymRow[];
  byFile: Map<number, SymRow[]>;
  byParent: Map<string, SymRow[]>;
  globals: SymRow[];
  members: SymRow[];
  /** members without constructors named like their class (memberPick's), once per name. */
  memberOf?: SymRow[];
  memo: Map<string, Outcome>;
}

export const NO_CANDIDATES: NameEntry = { all: [], byFile: new Map(), byParent: new Map(), globals: [], members: [], memo: new Map() };
