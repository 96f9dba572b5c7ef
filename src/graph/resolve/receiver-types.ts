/** What a written type says of the members a value of it has (receiver types, library types). */
import { closingIndex, pythonNotNoneType, splitOutsideBrackets, withoutTypeArguments } from "../../lang/type-text.js";

/**
 * The type a qualifier names when it is one capitalised identifier (`Math`, `new StringBuilder()`),
 * as a type is named in TYPE_NAMED languages: whether any symbol has that name decides whether
 * the reference is a library type's member. Incremental runs re-resolve references by it.
 */
export function writtenType(q: string): string | undefined {
  const ctor = /^new\s+([\w$.:]+)/.exec(q);
  // (A Rust path to a type, `tempfile::Builder`, names it by its last segment.)
  const written = ctor ? (ctor[1] as string) : (/^(?:[a-z_][a-z0-9_]*::)+([A-Z][A-Za-z0-9_]*)$/.exec(q)?.[1] ?? q);
  return /^[A-Z][A-Za-z0-9_$]*$/.test(written) && /[a-z]/.test(written) ? written : undefined;
}

/**
 * Whether a qualifier is an array or string literal, whole (`['get', 'set', 'has']`, `", "`): a
 * value of the runtime's Array or str, whose members no repository symbol is. (A qualifier
 * clipped at its start, `…`, is not known to be one.)
 */
export function literalValue(q: string): boolean {
  const first = q[0];
  if (first !== "[" && first !== '"' && first !== "'" && first !== "`") return false;
  const end = closingIndex(q, 0);
  return end === q.length - 1 && (first !== "[" || q[end] === "]");
}

export const GO_PREDECLARED = new Set([
  "any", "bool", "byte", "comparable", "complex64", "complex128", "error", "float32", "float64", "int", "int8", "int16", "int32", "int64",
  "rune", "string", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr",
]);
export const JAVA_PRIMITIVES = new Set(["boolean", "byte", "char", "double", "float", "int", "long", "short"]);
/** TypeScript's utility types that compute a type from others: what they give is not written. */
const TS_COMPUTED = new Set(["ReturnType", "InstanceType", "Parameters", "ConstructorParameters", "Record", "Extract", "Exclude", "ThisType", "ThisParameterType", "OmitThisParameter"]);
/** TypeScript's predefined types whose members are the runtime's (`any` and `unknown` say nothing). */
export const TS_PREDEFINED = new Set(["string", "number", "boolean", "symbol", "bigint", "object", "void", "never", "null", "undefined"]);
export const PYTHON_BUILTINS = new Set(["str", "int", "float", "bool", "bytes", "bytearray", "list", "dict", "set", "frozenset", "tuple", "complex", "List", "Dict", "Set", "FrozenSet", "Tuple", "typing.List", "typing.Dict"]);
export const CPP_POINTERS = /^(?:::)?std::(?:unique_ptr|shared_ptr|weak_ptr)<(.*)>$/s;
export const C_PRIMITIVES = new Set(["void", "char", "int", "float", "double", "bool", "_Bool", "wchar_t", "char8_t", "char16_t", "char32_t", "long", "short", "signed", "unsigned"]);
export const RUST_PRIMITIVES = new Set(["bool", "char", "str", "f32", "f64", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize"]);
/** Rust's smart pointers: their methods auto-dereference to the pointee's. */
export const RUST_POINTERS = /^(?:(?:std|alloc)::(?:boxed|rc|sync)::)?(?:Box|Rc|Arc)<(.*)>$/s;

/**
 * The type name a parameter's or local's declared type gives its members by (receiver_type):
 * `Map.Entry<K, V>` -> `Map.Entry`, Go's `*cobra.Command` -> `cobra.Command`. Null for a type
 * whose members are never the repository's (an array, a primitive, Go's predeclared, slice, map,
 * channel and function types); undefined when it says nothing here (a type parameter such as `T`,
 * whose members are its bound's, or a form not read).
 */
export function receiverTypeName(language: string, written: string, isClass?: (name: string) => boolean): string | null | undefined {
  let t = written;
  // A generic's type parameter (`T`, `E`, `K2`): its bound says what it has, not its name. But
  // fixtures and small programs name classes `A`, `B`, `C` too: a one-capital name the file sees
  // as a class (declared in it, or imported) is that class (`const b = new B()`).
  // C and C++ templates name their parameters `T`, `T1`, `V`; two capitals there are a class's
  // name (leveldb's `DB* db_`: every `db_->Put(...)` was ambiguous), and a header's class is
  // seen only through an include, which isClass does not count.
  const parameterShape = language === "c" || language === "cpp" ? /^[A-Z][0-9]?$/ : /^[A-Z][A-Z0-9]?$/;
  const typeParameter = (n: string): boolean => parameterShape.test(n) && !(isClass?.(n) ?? false);
  if (language === "java") {
    // Type annotations (`@Nullable String`) say nothing of the members.
    t = t.replace(/@[\w.]+(\([^)]*\))?\s*/g, "");
    if (t.includes("[")) return null;
    t = withoutTypeArguments(t);
    if (JAVA_PRIMITIVES.has(t)) return null;
  } else if (language === "go") {
    t = t.replace(/^\*+/, "");
    if (/^(\[|map\[|chan\b|<-|func\b|struct\s*\{|interface\s*\{)/.test(t)) return null;
    t = withoutTypeArguments(t, "[", "]");
    if (GO_PREDECLARED.has(t)) return null;
  } else if (language === "typescript" || language === "tsx" || language === "javascript") {
    t = t.replace(/^readonly\s+/, "");
    // `Foo | null`, `Foo | undefined`: Foo; any other union says nothing.
    const parts = splitOutsideBrackets(t, "|").filter((p) => p !== "" && p !== "null" && p !== "undefined");
    if (parts.length !== 1) return undefined;
    t = parts[0] as string;
    if (/(\[\]|^\[.*\])$/s.test(t) || /=>/.test(t)) return null;
    if (/^(\{|typeof\b|keyof\b|infer\b|`|'|")/.test(t)) return undefined;
    // `Readonly<T>`, `Pick<T, "a" | "b">`: T's members; `ReturnType<typeof f>`: a type computed
    // from another, not a library type of that name. (Without type arguments the name is a
    // type of its own: typeorm's tests declare an entity `Record`.)
    const wrapped = /^(NonNullable|Readonly|Required|Partial|Awaited|Pick|Omit)<(.*)>$/s.exec(t);
    if (wrapped) return receiverTypeName(language, splitOutsideBrackets(wrapped[2] as string, ",")[0] as string, isClass);
    if (t.includes("<") && TS_COMPUTED.has(withoutTypeArguments(t))) return undefined;
    t = withoutTypeArguments(t);
    if (TS_PREDEFINED.has(t)) return null;
    if (t === "any" || t === "unknown" || t === "this") return undefined;
  } else if (language === "c" || language === "cpp") {
    t = t.replace(/\b(?:const|volatile|struct|class|union|enum|typename|signed|unsigned|long|short)\s+/g, "").replace(/[\s*&]+$/, "").trim();
    if (t === "auto" || t === "decltype" || t.startsWith("decltype(")) return undefined;
    // `std::unique_ptr<T>`, `std::shared_ptr<T>`: `p->m` is T's.
    for (let m = CPP_POINTERS.exec(t); m; m = CPP_POINTERS.exec(t)) t = (m[1] as string).replace(/\b(?:const|struct|class)\s+/g, "").replace(/[\s*&]+$/, "").trim();
    t = withoutTypeArguments(t).replace(/^::/, "");
    // (A macro may declare the name again, of another type: a primitive says too little here.)
    if (C_PRIMITIVES.has(t)) return undefined;
    if (!/^[A-Za-z_]\w*(::[A-Za-z_]\w*)*$/.test(t)) return undefined;
    return typeParameter(t) ? undefined : t;
  } else if (language === "python") {
    // Forward references are strings; `Optional[X]` and `X | None` are X's.
    const one = pythonNotNoneType(t.replace(/^(["'])(.*)\1$/s, "$2").trim());
    if (one === undefined) return undefined;
    t = withoutTypeArguments(one, "[", "]");
    if (PYTHON_BUILTINS.has(t)) return null;
    if (t === "Any" || t === "typing.Any" || t === "t.Any" || t === "object") return undefined;
    // A lowercase name is a builtin or a function (`x = make()`), not a class by its writing; a
    // private class is one (click's `writer = _PagerWriter(stream)`).
    if (!/^_*[A-Z]/.test(t.slice(t.lastIndexOf(".") + 1))) return undefined;
  } else if (language === "rust") {
    t = t.replace(/^&\s*(?:'\w+\s+)?(?:mut\s+)?/, "").replace(/^(?:dyn|impl)\s+/, "");
    for (let m = RUST_POINTERS.exec(t); m; m = RUST_POINTERS.exec(t)) t = (m[1] as string).trim().replace(/^(?:dyn|impl)\s+/, "");
    if (/^(\[|\(|fn\b|&)/.test(t)) return null;
    t = withoutTypeArguments(t).replace(/\s*\+.*$/s, "");
    if (RUST_PRIMITIVES.has(t)) return null;
    if (t === "Self") return undefined;
    return /^[A-Za-z_][\w]*(::[A-Za-z_][\w]*)*$/.test(t) && !typeParameter(t) ? t : undefined;
  } else return undefined;
  if (!/^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(t)) return undefined;
  if (typeParameter(t)) return undefined;
  return t;
}

