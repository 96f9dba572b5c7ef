/**
 * The rename of last resort: magellan's index (.magellan/code.db). The definition's name plus
 * every reference the resolver tied to the symbol, each labelled with how it was tied
 * (`exact`: same scope or a qualified name; `imported`: through an import; `heuristic`: by name
 * alone or one of several candidates). A plan that touches a heuristic location is refused
 * unless the caller allows it, listing those locations.
 */
import { existsSync, readdirSync, readFileSync, type Dirent } from "node:fs";
import { join, posix } from "node:path";
import type { Diagnostic } from "../../../contract/schema.js";
import { openDb, type DB } from "../../../graph/db.js";
import { fitsArity } from "../../../graph/facts.js";
import { refsTo, siblingOverloadRefs, type SymbolRecord } from "../../../graph/read.js";
import { FIELDS_NEVER_CALLED, refCannotNameMethod } from "../../../graph/resolve.js";
import { renameError } from "./codes.js";
import type { Sources } from "./sources.js";
import type { Evidence, RenameLocation, RenamePlan, RenameTarget } from "./types.js";
import { findUp } from "../../../validate/process.js";
import { parse } from "../../../lang/registry.js";
import type Parser from "tree-sitter";

const SYMBOL_SQL = `SELECT s.symbol_id, s.name, s.kind, s.parent_symbol_id, s.name_byte_start, s.name_byte_end, s.name_start_line, f.path
  FROM symbols s JOIN files f ON f.id = s.file_id`;

type Row = Pick<SymbolRecord, "symbol_id" | "name" | "kind" | "parent_symbol_id" | "name_byte_start" | "name_byte_end" | "name_start_line" | "path">;

export function renameFromIndex(sources: Sources, target: RenameTarget, newName: string, allowHeuristic: boolean, notes: Diagnostic[]): RenamePlan {
  const t0 = performance.now();
  const dbPath = join(sources.root, ".magellan", "code.db");
  if (!existsSync(dbPath)) {
    throw renameError("no_engine", `no language server renames ${target.language} here and the workspace has no magellan index (${notes.map((n) => n.message).join("; ") || "no server"})`, "Run 'magellan index' in the workspace root, then rename again.", { file: target.file });
  }
  const db: DB = openDb(dbPath, { write: false });
  try {
    const sym = (
      target.symbol_id
        ? db.prepare(`${SYMBOL_SQL} WHERE s.symbol_id = ?`).all(target.symbol_id)
        : db.prepare(`${SYMBOL_SQL} WHERE f.path = ? AND s.name_byte_start = ?`).all(target.file, target.byte_start)
    ) as Row[];
    const s = sym[0];
    if (!s || s.path !== target.file || s.name !== target.name) {
      throw renameError("target_mismatch", `the magellan index has no '${target.name}' defined at ${target.file} byte ${target.byte_start}`, "Run 'magellan index' so the index matches the files, then rename again.", { file: target.file });
    }
    if (target.language === "java" && s.parent_symbol_id === null && s.path.split("/").pop() === `${s.name}.java`) {
      throw renameError("not_renameable", `'${s.name}' is the top-level type of ${s.path}: Java needs the file renamed with it, which a rename does not do`, `Move ${s.path} to ${newName}.java and rename the type there, or rename a member instead.`, { file: target.file });
    }
    const refs = refsTo(db, [s.symbol_id], [s.name], 100_000);
    const raw: { file: string; byte_start: number; byte_end: number; evidence: Evidence; line: number }[] = [
      { file: s.path, byte_start: s.name_byte_start, byte_end: s.name_byte_end, evidence: "exact", line: s.name_start_line },
    ];
    for (const r of refs) {
      const evidence: Evidence = r.resolution === "exact" ? "exact" : r.resolution === "imported" ? "imported" : "heuristic";
      raw.push({ file: r.path, byte_start: r.byte_start, byte_end: r.byte_end, evidence, line: r.start_line });
    }
    // References the resolver could not tie to anything but that carry the name (an import
    // from another package, a call on an untyped receiver): leaving them out would break the
    // code silently, so they come in as name-only evidence and need allowHeuristic.
    // (Not those that cannot be this kind of symbol: in Rust and Java `x.n()` calls no field,
    // and in Rust `self.n`, `x.n` and a struct literal's `n:` name no method. ripgrep's field
    // `num_ignores` took every unresolved `gi.num_ignores()` call of the method beside it. Nor does
    // any Java read or write: an array's `buf.length` is no use of `IOUtils.length(byte[])`. Nor a
    // Java or C++ call whose argument count the symbol cannot take: `flush(2)` is no call of
    // `flush()`, and renaming it broke the build.)
    const language = languageOf(db, s.path);
    const arity = db.prepare("SELECT arity FROM symbols WHERE symbol_id = ?").pluck().get(s.symbol_id) as string | null | undefined;
    const unresolved = (
      db
        .prepare("SELECT f.path, r.byte_start, r.byte_end, r.start_line, r.kind, r.qualifier, r.arity FROM refs r JOIN files f ON f.id = r.file_id WHERE r.name = ? AND r.resolution = 'unresolved' AND f.language = ?")
        .all(s.name, language) as { path: string; byte_start: number; byte_end: number; start_line: number; kind: string; qualifier: string | null; arity: number | null }[]
    ).filter(
      (r) =>
        !(r.kind === "call" && s.kind === "Field" && FIELDS_NEVER_CALLED.has(language)) &&
        !(s.kind === "Method" && refCannotNameMethod(language, r.kind, r.qualifier)) &&
        // A bare Rust name is a variable, never a field (`self.text`, `x.text`, `T { text: … }`
        // name one): bat's `let T { text, .. } = self; text.len()` offered `text.len()`.
        !(language === "rust" && s.kind === "Field" && r.qualifier === null) &&
        !(arity != null && r.arity !== null && !fitsArity(arity, r.arity)),
    );
    for (const r of unresolved) {
      if (s.kind === "Method" && language === "rust" && rustFieldAccess(sources, r.path, r.byte_start, r.byte_end)) continue;
      raw.push({ file: r.path, byte_start: r.byte_start, byte_end: r.byte_end, evidence: "heuristic", line: r.start_line });
    }
    // Rust: a method call the index tied by name alone to another method of the name (or to
    // several, this one not among them) is as much a guess for this one. anyhow's `anyhow!(…).context(…)` in tests went to the `Context`
    // trait's `context` (the macro's type unknown), though `Error::context` is the one it calls:
    // renaming the inherent method left them, and with cargo offline nothing said so. They come
    // in as name-only locations, listed by the SPLICE_E203 refusal.
    if (language === "rust" && s.kind === "Method") {
      const guessed = db
        .prepare(
          `SELECT f.path, r.byte_start, r.byte_end, r.start_line, r.arity FROM refs r JOIN files f ON f.id = r.file_id
           WHERE r.name = ? AND r.kind = 'call' AND f.language = ? AND (
             (r.resolution = 'heuristic' AND r.target_symbol_id != ? AND EXISTS (SELECT 1 FROM symbols t WHERE t.symbol_id = r.target_symbol_id AND t.kind = 'Method'))
             OR (r.resolution = 'ambiguous' AND instr(coalesce(r.candidates, ''), ?) = 0))`,
        )
        .all(s.name, language, s.symbol_id, `"${s.symbol_id}"`) as { path: string; byte_start: number; byte_end: number; start_line: number; arity: number | null }[];
      for (const r of guessed) {
        if (arity != null && r.arity !== null && !fitsArity(arity, r.arity)) continue;
        raw.push({ file: r.path, byte_start: r.byte_start, byte_end: r.byte_end, evidence: "heuristic", line: r.start_line });
      }
    }
    // Java and C++ overload by parameter types, which the index does not read: a call whose
    // argument count fits several overloads is tied to one of them, so a call tied to a sibling
    // overload may be this one's. Left out, renaming `put(int)` beside `put(long)` kept `o.put(7)`,
    // which then called put(long): javac had nothing to say and the result said validated.
    for (const r of siblingOverloadRefs(db, s.symbol_id)) {
      if (arity != null && r.arity !== null && !fitsArity(arity, r.arity)) continue;
      raw.push({ file: r.path, byte_start: r.byte_start, byte_end: r.byte_end, evidence: "heuristic", line: r.start_line });
    }
    if (language === "java") {
      // A Java type's constructors carry its name: javapoet's `enum Kind { …; Kind(Set<Modifier> m) {…} }`
      // renamed without them no longer compiled ("enum constant not expected here").
      for (const c of db.prepare(`${SYMBOL_SQL} WHERE s.parent_symbol_id = ? AND s.kind = 'Constructor' AND s.name = ?`).all(s.symbol_id, s.name) as Row[]) {
        raw.push({ file: c.path, byte_start: c.name_byte_start, byte_end: c.name_byte_end, evidence: "exact", line: c.name_start_line });
      }
    }
    if (language === "rust" && RUST_IMPLEMENTED.has(s.kind)) {
      // A Rust type's `impl T {…}` and `impl Trait for T {…}` write its name, and the index holds
      // them as symbols (`T`, `<T as Trait>`), not as references: ripgrep's `LineStep` renamed
      // without them left `impl LineStep {` naming a type that no longer exists.
      for (const l of rustImpls(db, sources.root, s)) raw.push(l);
    }
    // Java: a call the index tied to this method by name and argument count only, that passes a
    // string literal where this overload takes no String, calls another overload: javapoet's
    // `.addStatement("return null")` is `addStatement(String, Object...)`, and renaming
    // `addStatement(CodeBlock)` listed seven of them beside the one real name-only use.
    if (language === "java" && s.kind === "Method") {
      const own = parameterTypes(sources.get(sources.abs(s.path))?.text ?? "", s, sources);
      if (own && own.length > 0) {
        for (let i = raw.length - 1; i >= 0; i--) {
          const l = raw[i] as (typeof raw)[number];
          if (l.evidence === "heuristic" && javaStringMisfit(sources, l.file, l.byte_end, own)) raw.splice(i, 1);
        }
      }
    }
    // In a Java file that imports another class's member of that name (`import
    // javax.tools.JavaFileObject.Kind;` beside javapoet's own `TypeSpec.Kind`), the bare name is
    // that import's: a guess by name there is no use of this symbol.
    const elsewhere = language === "java" ? javaImportedElsewhere(db, s) : new Set<string>();
    for (let i = raw.length - 1; i >= 0; i--) {
      const l = raw[i] as (typeof raw)[number];
      if (l.evidence === "heuristic" && elsewhere.has(l.file)) raw.splice(i, 1);
    }
    // A .rs file that no target of its package compiles (bat's tests/syntax-tests/source/Rust/
    // output.rs, input for the highlighter) names nothing of the crate: renaming in it changed
    // test data.
    if (language === "rust") {
      const compiled = new Map<string, Set<string> | undefined>();
      for (let i = raw.length - 1; i >= 0; i--) {
        const l = raw[i] as (typeof raw)[number];
        if (l.file !== s.path && !rustCompiles(sources.root, l.file, compiled)) raw.splice(i, 1);
      }
    }
    const seen = new Set<string>();
    const locations: RenameLocation[] = [];
    const stale: string[] = [];
    for (const l of raw) {
      const key = `${l.file}\0${l.byte_start}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const text = sources.get(sources.abs(l.file));
      const old = text ? Buffer.from(text.bytes.subarray(l.byte_start, l.byte_end)).toString("utf8") : undefined;
      // A reference's span may carry a qualifier (`a.b`): the name is its last occurrence.
      let start = l.byte_start;
      if (old !== undefined && old !== s.name) {
        const k = old.lastIndexOf(s.name);
        if (k < 0) {
          stale.push(`${l.file}:${l.line}`);
          continue;
        }
        start += Buffer.byteLength(old.slice(0, k));
      }
      if (old === undefined) {
        stale.push(`${l.file}:${l.line}`);
        continue;
      }
      locations.push({ file: l.file, byte_start: start, byte_end: start + Buffer.byteLength(s.name), old_text: s.name, new_text: newName, evidence: l.evidence });
    }
    if (language === "rust" && s.kind === "Field") {
      for (const l of rustShorthandFields(db, sources, s, newName)) {
        const key = `${l.file}\0${l.byte_start}`;
        const i = locations.findIndex((x) => `${x.file}\0${x.byte_start}` === key);
        if (i >= 0) locations.splice(i, 1);
        seen.add(key);
        locations.push(l);
      }
    }
    if (language === "java") {
      for (const l of javadocLinks(db, sources, s, newName)) {
        const key = `${l.file}\0${l.byte_start}`;
        if (seen.has(key)) continue;
        seen.add(key);
        locations.push(l);
      }
    }
    if (stale.length) {
      throw renameError("stale_index", `the magellan index is out of date for ${stale.slice(0, 5).join(", ")}${stale.length > 5 ? ` and ${stale.length - 5} more` : ""}`, "Run 'magellan index' (or keep 'magellan watch' running), then rename again.", { file: target.file });
    }
    const clash = indexClash(db, s, newName, [...new Set(locations.map((l) => l.file))], language);
    if (clash) throw renameError("clash", `'${newName}' is already bound where '${s.name}' is used: ${clash}`, `Choose another name, or rename the other '${newName}' first.`, { file: target.file });
    const heuristic = locations.filter((l) => l.evidence === "heuristic");
    if (heuristic.length && !allowHeuristic) {
      const list = heuristic.slice(0, 20).map((l) => `${l.file}:${sources.get(sources.abs(l.file))!.lineOf(l.byte_start)}`);
      throw renameError("heuristic_locations", `renaming '${s.name}' would touch ${heuristic.length} location(s) tied to it by name only: ${list.join(", ")}${heuristic.length > 20 ? ", …" : ""}`, "Check those locations, then pass --allow-heuristic (allowHeuristic) to include them, or rename by hand with splice edit.", {
        file: target.file,
        // Why the index renames at all (no server, or the language service cannot tie the uses):
        // without it an express rename's refusal read as if TypeScript had found name-only uses.
        ...(notes.length ? { note: notes.map((n) => n.message).join("; ") } : {}),
      });
    }
    locations.sort((a, b) => (a.file === b.file ? a.byte_start - b.byte_start : a.file < b.file ? -1 : 1));
    return { engine: "magellan-index", locations, diagnostics: notes, timing: { total_ms: Math.round(performance.now() - t0), warm: false } };
  } finally {
    db.close();
  }
}

/**
 * Javadoc's links to a Java member (`{@link #beforeRead(int)}`, `{@linkplain #n}`, `@see
 * Cls#m(int)`): the index holds no reference there, so commons-io's `{@link #beforeRead(int)}` in
 * ProxyInputStream was left naming a method that no longer exists (javadoc's doclint fails on it,
 * javac does not see it). A link without a class is the member of its own file's class; one with
 * a class names the member's class by its simple or qualified name, in any Java file. A method is
 * linked with its parameters, or without them when no field of its class has its name (a field
 * beside a method `mark()` takes the bare `#mark`); a field without them.
 */
function javadocLinks(db: DB, sources: Sources, s: Row, newName: string): RenameLocation[] {
  if (s.parent_symbol_id === null) return [];
  const cls = db.prepare("SELECT name FROM symbols WHERE symbol_id = ?").pluck().get(s.parent_symbol_id) as string | undefined;
  if (cls === undefined) return [];
  const isMethod = s.kind === "Method" || s.kind === "Constructor";
  const kinds = db.prepare("SELECT kind FROM symbols WHERE parent_symbol_id = ? AND name = ?").pluck().all(s.parent_symbol_id, s.name) as string[];
  const fieldBeside = isMethod && kinds.some((k) => k === "Field" || k === "Constant" || k === "EnumMember");
  // Overloads are told apart by the link's parameter types (`#length(char[])`).
  const overloaded = kinds.filter((k) => k === s.kind).length > 1;
  const own = overloaded ? parameterTypes(sources.get(sources.abs(s.path))?.text ?? "", s, sources) : undefined;
  const name = s.name.replace(/\$/g, "\\$");
  const link = new RegExp(String.raw`(?:\{@link(?:plain)?|@see)\s+([\w$.]*)#(${name})(?![\w$])(\()?`, "g");
  const files = [s.path, ...(db.prepare("SELECT path FROM files WHERE language = 'java' AND path != ?").pluck().all(s.path) as string[])];
  const out: RenameLocation[] = [];
  for (const file of files) {
    const text = sources.get(sources.abs(file));
    if (!text || !text.text.includes(`#${s.name}`)) continue;
    for (const doc of text.text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
      for (const m of (doc[0] as string).matchAll(link)) {
        const owner = m[1] as string;
        if (owner === "" ? file !== s.path : owner !== cls && !owner.endsWith(`.${cls}`)) continue;
        const call = m[3] !== undefined;
        if (isMethod ? !call && fieldBeside : call) continue;
        if (overloaded) {
          const rest = (doc[0] as string).slice((m.index as number) + (m[0] as string).length);
          const close = rest.indexOf(")");
          if (!call || own === undefined || close < 0 || !sameTypes(rest.slice(0, close).split(","), own)) continue;
        }
        const at = (doc.index as number) + (m.index as number) + (m[0] as string).lastIndexOf(`#${s.name}`) + 1;
        const byte = text.charToByte(at);
        out.push({ file, byte_start: byte, byte_end: byte + Buffer.byteLength(s.name), old_text: s.name, new_text: newName, evidence: "exact" });
      }
    }
  }
  return out;
}

/** The simple type names a Java method's declaration (from its name on) takes: `(final byte[] a, Map<K, V> m)` -> `byte[]`, `Map`. */
function parameterTypes(text: string, s: Row, sources: Sources): string[] | undefined {
  const t = sources.get(sources.abs(s.path));
  if (!t) return undefined;
  return parameterTypesAt(text, t.byteToChar(s.name_byte_end));
}

/** The parameter types of the declaration whose name ends at `from` (a character offset), as written. */
export function parameterTypesAt(text: string, from: number): string[] | undefined {
  const open = text.indexOf("(", from);
  if (open < 0) return undefined;
  let depth = 0;
  let cur = "";
  const params: string[] = [];
  for (let i = open + 1; i < text.length; i++) {
    const c = text[i] as string;
    if (c === ")" && depth === 0) {
      if (cur.trim()) params.push(cur);
      return params.map((p) => {
        const words = p.replace(/@[\w.]+(\([^)]*\))?/g, " ").replace(/\bfinal\b/g, " ").trim();
        return words.replace(/\s+[\w$]+$/, "");
      });
    }
    if (c === "<") depth++;
    else if (c === ">") depth--;
    if (c === "," && depth === 0) {
      params.push(cur);
      cur = "";
    } else cur += c;
  }
  return undefined;
}

/** A Java argument that is a string: literals (a text block too), joined by `+` or alone. */
const STRING_LITERALS = /^(?:"(?:[^"\\\n]|\\.)*"|"""[^]*?""")(?:\s*\+\s*(?:"(?:[^"\\\n]|\\.)*"|"""[^]*?"""))*$/;

/** The types a Java string literal converts to (a type variable, one capital and a digit at most, too). */
const STRING_TAKERS = new Set(["String", "Object", "CharSequence", "Comparable", "Serializable", "Constable", "ConstantDesc"]);

/**
 * Whether the Java call whose name ends at byte `end` of `file` passes a string literal (the whole
 * argument) where the parameter of that position, in `params` (a declaration's types as written),
 * takes no String. Arguments are split at top-level commas; any doubt (no parenthesis, unclosed,
 * a generic's comma splitting differently) is no misfit.
 */
function javaStringMisfit(sources: Sources, file: string, end: number, params: string[]): boolean {
  const t = sources.get(sources.abs(file));
  if (!t) return false;
  const text = Buffer.from(t.bytes.subarray(end, end + 8192)).toString("utf8");
  const args = callArguments(text);
  if (!args) return false;
  const last = params.length - 1;
  const varargs = (params[last] ?? "").includes("...");
  return args.some((a, i) => {
    if (!STRING_LITERALS.test(a)) return false;
    const declared = i < last ? params[i] : i === last ? params[last] : varargs ? params[last] : undefined;
    if (declared === undefined) return false;
    const type = simpleType(varargs && i >= last ? declared.replace(/\.\.\.\s*$/, "") : declared);
    if (type.includes("[]")) return false;
    return !STRING_TAKERS.has(type) && !/^[A-Z][A-Z0-9]?$/.test(type);
  });
}

/** The top-level arguments of the call whose `(` is the first non-blank character of `text`, trimmed; undefined when unclear. */
function callArguments(text: string): string[] | undefined {
  const open = /^\s*\(/.exec(text);
  if (!open) return undefined;
  const args: string[] = [];
  let depth = 0;
  let cur = "";
  for (let i = open[0].length; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '"' || c === "'") {
      const block = c === '"' && text.startsWith('"""', i);
      const close = block ? text.indexOf('"""', i + 3) : -1;
      let j = block ? (close < 0 ? -1 : close + 2) : i + 1;
      if (!block) {
        while (j < text.length && text[j] !== c && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
        if (text[j] !== c) return undefined;
      }
      if (j < 0) return undefined;
      cur += text.slice(i, j + 1);
      i = j;
      continue;
    }
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") {
      if (depth === 0) {
        if (c !== ")") return undefined;
        if (cur.trim() || args.length) args.push(cur.trim());
        return args;
      }
      depth--;
    }
    if (c === "<" || c === ">") {
      // A generic's comma (`new HashMap<String, Integer>()`) would split an argument: give up.
      if (/[A-Za-z_$][\w$]*\s*<\s*[A-Z?]/.test(cur.slice(-40) + c + text.slice(i + 1, i + 3))) return undefined;
    }
    if (c === "," && depth === 0) {
      args.push(cur.trim());
      cur = "";
    } else cur += c;
  }
  return undefined;
}

/** A Java type as written, by its simple name: type arguments left out, `...` as `[]`, no package. */
function simpleType(t: string): string {
  return t.replace(/<[^]*>/g, "").replace(/\.\.\./g, "[]").replace(/\s+/g, "").replace(/^.*\.(?=[^.]*$)/, "");
}

/** Two parameter lists name the same types (simple names, type arguments left out, `...` as `[]`). */
export function sameTypes(link: string[], own: string[]): boolean {
  const a = link.map((t) => t.trim()).filter(Boolean);
  const b = own.map((t) => t.trim()).filter(Boolean);
  return a.length === b.length && a.every((t, i) => simpleType(t) === simpleType(b[i] as string));
}

/**
 * Whether the name at those bytes is a Rust field access: `.name` not called. Inside a macro's
 * tokens the index records it as a read without qualifier (`ptr::addr_of!((*p)._object.context)`
 * in anyhow), which the method filter above cannot tell from a path; renaming `Error::context`
 * took two of them, naming a field of ContextError that then did not exist.
 */
function rustFieldAccess(sources: Sources, file: string, start: number, end: number): boolean {
  const t = sources.get(sources.abs(file));
  if (!t) return false;
  const bytes = t.bytes;
  let i = start - 1;
  while (i >= 0 && (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x09 || bytes[i] === 0x0d)) i--;
  if (i < 0 || bytes[i] !== 0x2e || bytes[i - 1] === 0x2e) return false;
  let j = end;
  while (j < bytes.length && (bytes[j] === 0x20 || bytes[j] === 0x0a || bytes[j] === 0x09 || bytes[j] === 0x0d)) j++;
  // `.name(` is a call; `.name::<T>(` a call with turbofish.
  return bytes[j] !== 0x28 && !(bytes[j] === 0x3a && bytes[j + 1] === 0x3a);
}

/** A Rust type's name without its path and generics (`m::Iter<'a>` → `Iter`). */
function rustBaseName(n: Parser.SyntaxNode | null): string | undefined {
  if (!n) return undefined;
  if (n.type === "generic_type") return rustBaseName(n.childForFieldName("type"));
  if (n.type === "scoped_type_identifier" || n.type === "scoped_identifier") return n.childForFieldName("name")?.text;
  return n.text;
}

/**
 * A Rust struct literal's or pattern's shorthand field (`Iter { text, chars: … }`, `let Iter {
 * text, .. } = it`) names the field and a variable at once; the index ties it to the variable
 * only. bat's `EscapeSequenceOffsetsIterator { text, … }` was left on the old field name by the
 * rename of the field `text` (cargo offline, so `unchecked`, and the crate no longer compiled).
 * The new text keeps the variable: `source: text`. Only literals and patterns that name the
 * field's struct (by its name, a path ending in it, or `Self` inside its impl) are changed.
 */
function rustShorthandFields(db: DB, sources: Sources, s: Row, newName: string): RenameLocation[] {
  if (s.parent_symbol_id === null) return [];
  const owner = db.prepare("SELECT name FROM symbols WHERE symbol_id = ?").pluck().get(s.parent_symbol_id) as string | undefined;
  if (owner === undefined) return [];
  const files = new Set<string>([s.path, ...(db.prepare("SELECT DISTINCT f.path FROM refs r JOIN files f ON f.id = r.file_id WHERE r.name = ? AND f.language = 'rust'").pluck().all(owner) as string[])]);
  const names = (n: Parser.SyntaxNode): boolean => {
    const base = rustBaseName(n);
    if (base === owner) return true;
    if (base !== "Self") return false;
    for (let p = n.parent; p; p = p.parent) if (p.type === "impl_item") return rustBaseName(p.childForFieldName("type")) === owner;
    return false;
  };
  const out: RenameLocation[] = [];
  for (const file of files) {
    const t = sources.get(sources.abs(file));
    if (!t || !t.text.includes(s.name)) continue;
    let tree: Parser.Tree;
    try {
      tree = parse("rust", t.text);
    } catch {
      continue;
    }
    const add = (id: Parser.SyntaxNode): void => {
      const at = t.charToByte(id.startIndex);
      out.push({ file, byte_start: at, byte_end: at + Buffer.byteLength(s.name), old_text: s.name, new_text: `${newName}: ${s.name}`, evidence: "exact" });
    };
    for (const lit of tree.rootNode.descendantsOfType("struct_expression")) {
      const name = lit.childForFieldName("name");
      if (!name || !names(name)) continue;
      for (const f of lit.childForFieldName("body")?.namedChildren ?? []) {
        const id = f.type === "shorthand_field_initializer" ? f.namedChildren.find((c) => c.type === "identifier") : undefined;
        if (id && id.text === s.name) add(id);
      }
    }
    for (const pat of tree.rootNode.descendantsOfType("struct_pattern")) {
      const name = pat.childForFieldName("type");
      if (!name || !names(name)) continue;
      for (const f of pat.namedChildren) {
        if (f.type !== "field_pattern" || f.childForFieldName("pattern")) continue;
        const id = f.namedChildren.find((c) => c.type === "shorthand_field_identifier");
        if (id && id.text === s.name) add(id);
      }
    }
  }
  return out;
}

const RUST_IMPLEMENTED = new Set(["Struct", "Enum", "Union", "TypeAlias"]);

/**
 * The impl blocks of a Rust type: those of its name in its own file, or elsewhere in its crate
 * (the nearest Cargo.toml) when no other type of the crate has that name (`exact`); one in a
 * crate with several types of that name is a guess (`heuristic`).
 */
function rustImpls(db: DB, root: string, s: Row): { file: string; byte_start: number; byte_end: number; evidence: Evidence; line: number }[] {
  const impls = (db.prepare(`${SYMBOL_SQL} WHERE s.kind = 'Impl' AND (s.name = ? OR s.name LIKE ?)`).all(s.name, `<${s.name} as %`) as Row[]).filter(
    (r) => r.name === s.name || r.name.startsWith(`<${s.name} as `),
  );
  if (impls.length === 0) return [];
  const crate = crateDir(root, s.path);
  const kinds = [...RUST_IMPLEMENTED].map(() => "?").join(", ");
  const rivals = (db.prepare(`${SYMBOL_SQL} WHERE s.name = ? AND s.kind IN (${kinds}) AND s.symbol_id != ?`).all(s.name, ...RUST_IMPLEMENTED, s.symbol_id) as Row[]).filter(
    (r) => crateDir(root, r.path) === crate,
  );
  return impls
    .filter((r) => crateDir(root, r.path) === crate)
    .map((r) => ({
      file: r.path,
      byte_start: r.name_byte_start,
      byte_end: r.name_byte_end,
      evidence: r.path === s.path || rivals.length === 0 ? "exact" : "heuristic",
      line: r.name_start_line,
    }));
}

/**
 * Whether a target of the package that holds the root-relative .rs `file` compiles it: the
 * files reached through `mod` declarations (and `#[path]`) from the targets cargo discovers
 * (src/lib.rs, src/main.rs, src/bin/, tests/, examples/, benches/, build.rs) and those the
 * manifest names with `path =`. A file with no Cargo.toml above it is taken to be compiled.
 * `cache`: package directory → its compiled files (absolute).
 */
function rustCompiles(root: string, file: string, cache: Map<string, Set<string> | undefined>): boolean {
  const pkg = crateDir(root, file);
  if (!pkg) return true;
  if (!cache.has(pkg)) cache.set(pkg, rustCompiledFiles(pkg));
  const set = cache.get(pkg);
  return !set || set.has(join(root, file));
}

export function rustCompiledFiles(pkg: string): Set<string> | undefined {
  let manifest: string;
  try {
    manifest = readFileSync(join(pkg, "Cargo.toml"), "utf8");
  } catch {
    return undefined;
  }
  const roots: string[] = [join(pkg, "src/lib.rs"), join(pkg, "src/main.rs"), join(pkg, "build.rs")];
  for (const m of manifest.matchAll(/^\s*(?:path|build)\s*=\s*"([^"]+\.rs)"/gm)) roots.push(join(pkg, m[1] as string));
  for (const dir of ["src/bin", "tests", "examples", "benches"]) {
    let entries: Dirent[];
    try {
      entries = readdirSync(join(pkg, dir), { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (e.isFile() && e.name.endsWith(".rs")) roots.push(join(pkg, dir, e.name));
      else if (e.isDirectory()) roots.push(join(pkg, dir, e.name, "main.rs"));
    }
  }
  const out = new Set<string>();
  const queue = roots.filter((f) => existsSync(f));
  while (queue.length) {
    const f = queue.pop() as string;
    if (out.has(f)) continue;
    out.add(f);
    let text: string;
    try {
      text = readFileSync(f, "utf8");
    } catch {
      continue;
    }
    const base = posix.basename(f);
    // A crate root or mod.rs declares its modules beside it; `a.rs` declares them in `a/`.
    const dir = base === "mod.rs" || roots.includes(f) ? posix.dirname(f) : f.replace(/\.rs$/, "");
    for (const m of text.matchAll(/(?:#\[path\s*=\s*"([^"]+)"\][\s\S]{0,200}?)?\bmod\s+(?:r#)?(\w+)\s*;/g)) {
      if (m[1]) queue.push(join(posix.dirname(f), m[1]), join(dir, m[1]));
      else queue.push(join(dir, `${m[2]}.rs`), join(dir, m[2] as string, "mod.rs"));
    }
    // A module declared inside an inline `mod a { mod b; }` lives in a/b.rs: without reading the
    // nesting, every .rs below a/ counts.
    for (const m of text.matchAll(/\bmod\s+(?:r#)?(\w+)\s*\{/g)) for (const g of rsBelow(join(dir, m[1] as string))) queue.push(g);
  }
  return new Set([...out].filter((f) => existsSync(f)));
}

function rsBelow(dir: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => (e.isDirectory() ? rsBelow(join(dir, e.name)) : e.name.endsWith(".rs") ? [join(dir, e.name)] : []));
}

/** The directory of the nearest Cargo.toml above a root-relative file, up to the root (undefined: none). */
function crateDir(root: string, file: string): string | undefined {
  return findUp(join(root, posix.dirname(file)), root, ["Cargo.toml"])?.dir;
}

/** The Java files (other than the symbol's own) whose single-name imports bind its name to something else. */
function javaImportedElsewhere(db: DB, s: Row): Set<string> {
  const fqn = db.prepare("SELECT display_fqn FROM symbols WHERE symbol_id = ?").pluck().get(s.symbol_id) as string | null | undefined;
  const out = new Set<string>();
  if (!fqn) return out;
  const rows = db
    .prepare("SELECT f.path, i.source, i.names FROM imports i JOIN files f ON f.id = i.file_id WHERE f.language = 'java' AND f.path != ? AND i.names LIKE ?")
    .all(s.path, `%${s.name}%`) as { path: string; source: string; names: string }[];
  for (const r of rows) {
    const names = JSON.parse(r.names) as { name: string; alias?: string }[];
    if (names.some((n) => n.name === s.name && n.alias === undefined) && `${r.source}.${s.name}` !== fqn) out.add(r.path);
  }
  return out;
}

function languageOf(db: DB, path: string): string {
  return (db.prepare("SELECT language FROM files WHERE path = ?").get(path) as { language: string } | undefined)?.language ?? "";
}

/**
 * A symbol named `newName` in the renamed symbol's own scope (same parent: a sibling member or a
 * top-level in the same file), or at top level of a file that uses it (the new name would be
 * shadowed or shadow there). What an index can see; a scope inside a body it cannot.
 */
/**
 * Java keeps methods apart from fields and types (a method `strictness()` beside a field
 * `strictness` is legal and common): a method clashes only with a method, a field or constant
 * only with a field or constant, a type only with a type.
 */
function javaNamespace(kind: string): string {
  return kind === "Method" || kind === "Constructor" ? "method" : kind === "Field" || kind === "Constant" || kind === "EnumMember" ? "field" : "type";
}

function indexClash(db: DB, s: Row, newName: string, files: string[], language: string | undefined): string | undefined {
  const rows = db.prepare(`${SYMBOL_SQL} WHERE s.name = ?`).all(newName) as Row[];
  for (const r of rows) {
    if (language === "java" && javaNamespace(r.kind) !== javaNamespace(s.kind)) continue;
    const sameScope = s.parent_symbol_id ? r.parent_symbol_id === s.parent_symbol_id : r.parent_symbol_id === null && r.path === s.path;
    const topInUser = r.parent_symbol_id === null && files.includes(r.path) && !s.parent_symbol_id;
    if (sameScope || topInUser) return `${r.path}:${r.name_start_line} (${r.kind} ${r.name})`;
  }
  return undefined;
}
