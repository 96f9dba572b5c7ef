/**
 * What extraction (src/lang) hands to the code graph (src/graph): the facts of one file, with
 * exact byte offsets. Resolution of names to targets is the graph's job, not extraction's.
 */
import type { LanguageId } from "./registry.js";

export type SymbolKind =
  | "function"
  | "method"
  | "constructor"
  | "class"
  | "abstract_class"
  | "struct"
  | "union"
  | "interface"
  | "trait"
  | "enum"
  | "enum_member"
  | "type_alias"
  | "module"
  | "namespace"
  | "constant"
  | "static"
  | "variable"
  | "field"
  | "macro"
  | "impl";

export interface ByteRange {
  byte_start: number;
  byte_end: number;
}

export interface ExtractedSymbol {
  name: string;
  kind: SymbolKind;
  /** Span of the whole definition. */
  range: ByteRange;
  /** Span of the name. */
  name_range: ByteRange;
  /** Names of the enclosing scopes, outermost first (impl target, class, namespace, ...). */
  scope: string[];
  /** Index into `symbols` of the enclosing symbol, when there is one. */
  parent_index?: number;
  /** Extra facts: `exported`, `default_export`, `overload`, `abstract`, `static`, ... */
  flags?: string[];
  /**
   * The types a class or interface extends or implements, as written (generic arguments left
   * out): `Base`, `pkg.Base`, `ns::Base`. Resolution looks inherited members up through them.
   */
  bases?: string[];
  /** A field's declared type when it names one type, as written (generic arguments left out). */
  declared_type?: string;
  /** Go: the name a method's body calls its receiver by (`m` in `func (m *model) View()`). */
  receiver?: string;
  /**
   * Java and C++ functions, methods and constructors: how many arguments a call may pass, as
   * `2`, `1-3` (default arguments) or `2+` (varargs). Resolution tells overloads apart by it.
   */
  arity?: string;
}

export type ReferenceKind = "call" | "read" | "write" | "type" | "import";

export interface ExtractedReference {
  name: string;
  kind: ReferenceKind;
  range: ByteRange;
  /** Qualifier written before the name (`a.b` in `a.b.c()`, `mod::` in Rust), if any. */
  qualifier?: string;
  /** Index into `symbols` of the innermost enclosing symbol (the caller for calls). */
  enclosing_index?: number;
  /** Java and C++ calls: how many arguments they pass (see ExtractedSymbol.arity). */
  arity?: number;
  /**
   * The type written for the parameter or local variable the qualifier names (`String s` for
   * `s.trim()`), when the qualifier is one such name and its declaration writes a type.
   */
  receiver_type?: string;
}

export interface ExtractedImport {
  /** Module specifier as written (`./util`, `std::collections`, `java.util.List`). */
  source: string;
  /** Names brought in; `*` for a wildcard; empty for a bare/side-effect import. */
  names: { name: string; alias?: string }[];
  /** Local name bound to the whole module (`import * as ns`, Python `import a.b as c`, Go `import f "fmt"`). */
  alias?: string;
  range: ByteRange;
}

export interface FileFacts {
  language: LanguageId;
  symbols: ExtractedSymbol[];
  references: ExtractedReference[];
  imports: ExtractedImport[];
  /** True when tree-sitter recovered from syntax errors (ERROR/MISSING nodes present). */
  has_errors: boolean;
}
