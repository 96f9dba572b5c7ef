/**
 * The compact text beside each structured answer, for clients that show only text: a header,
 * the diagnostics, then one line per listed item (file:line:col and what it is). The structured
 * envelope stays the complete answer.
 */
import { clipText } from "../text/clip.js";

type Rec = Record<string, unknown>;

const LIST_KEYS = ["matches", "references", "symbols", "nodes", "counts", "documents", "operations", "diagnostics"];
const MAX_LINE = 200;
/** Each capture's text on a match's line: enough to tell the matches apart. */
const MAX_CAPTURE = 80;

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : typeof v === "number" ? String(v) : undefined;
}

function oneLine(s: string, max = MAX_LINE): string {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length > max ? `${clipText(t, max)}…` : t;
}

/** `file`: the answer's one file (magellan_symbols, magellan_ast), for items that do not name theirs. */
function where(item: Rec, file?: string): string | undefined {
  const span = (item.span ?? item.range ?? item) as Rec;
  file = str(span.file_path) ?? str(item.file_path) ?? str(item.file) ?? file;
  const line = str(span.start_line) ?? str(item.line);
  if (file === undefined) return line !== undefined ? `:${line}` : undefined;
  const col = str(span.start_col);
  return line === undefined ? file : col === undefined ? `${file}:${line}` : `${file}:${line}:${col}`;
}

/** "1 match", "2 matches": what a count counts, and the lists' names, are plurals ending in s. */
function counted(n: unknown, plural: string): string {
  return `${str(n)} ${n === 1 || n === "1" ? (plural === "matches" ? "match" : plural.replace(/s$/, "")) : plural}`;
}

/** `countOf`: what an item's count counts (llmsearch -c counts lines); `file`: as for where(). */
function itemLine(item: unknown, countOf = "matches", file?: string): string {
  if (item === null || typeof item !== "object") return oneLine(JSON.stringify(item));
  const r = item as Rec;
  const parts = [where(r, file)];
  const kind = str(r.kind) ?? str(r.reference_kind) ?? str(r.type);
  const name = str(r.name) ?? str(r.referenced_symbol) ?? str(r.selector) ?? str(r.display_fqn) ?? str(r.operation_id);
  if (kind) parts.push(kind);
  if (name) parts.push(name);
  if (r.caller !== undefined) parts.push(`in ${str(r.caller)}`);
  if (r.count !== undefined) parts.push(counted(r.count, countOf));
  const text = str(r.matched_text) ?? str(r.content);
  if (text !== undefined) parts.push(JSON.stringify(oneLine(text)));
  // llmastsearch: what each capture holds, which is what the query was asked to find.
  if (Array.isArray(r.captures)) {
    for (const c of r.captures as Rec[]) {
      const content = str(c.content);
      if (content !== undefined) parts.push(`@${str(c.name) ?? ""} ${JSON.stringify(oneLine(content, MAX_CAPTURE))}`);
    }
  }
  return parts.filter((p) => p !== undefined && p !== "").join("  ");
}

/**
 * What an mdsel item is for, which its one line cannot hold: a selected node's whole content (the
 * answer itself, already cut at 500 words with its pages offered) and the selectors of its
 * children; a document's headings, each with its selector. Without them a client that shows only
 * text got the first 200 characters of a section, and an outline that was a file name.
 */
function mdselDetail(item: Rec): string[] {
  const out: string[] = [];
  if (typeof item.content === "string") out.push(item.content);
  for (const c of (item.children_available as Rec[] | undefined) ?? []) out.push(`  ${itemLine({ ...c, span: undefined })}${c.preview !== undefined ? `  ${JSON.stringify(oneLine(str(c.preview) ?? "", MAX_CAPTURE))}` : ""}`);
  const root = item.root as Rec | undefined;
  if (typeof item.namespace === "string" && root) out.push(`  namespace ${item.namespace}: ${str(root.selector)}  (${str(root.word_count)} words)`);
  const headings = item.headings as Rec[] | undefined;
  if (Array.isArray(headings)) {
    for (const h of headings) {
      const words = h.section_word_count !== undefined ? `  (${str(h.section_word_count)} words)` : "";
      out.push(`  ${itemLine({ ...h, span: { ...(h.span as Rec), file_path: undefined } })}  ${JSON.stringify(oneLine(str(h.text) ?? "", MAX_CAPTURE))}${words}`);
    }
  }
  return out;
}

/**
 * A match's context lines (llmsearch's and llmastsearch's `context`), numbered as rg numbers
 * them (`12-`): a client that shows only text asked for them and got none.
 */
function contextLines(item: Rec): string[] {
  const before = item.context_before, after = item.context_after;
  if (!Array.isArray(before) && !Array.isArray(after)) return [];
  const span = (item.span ?? {}) as Rec;
  const first = typeof span.start_line === "number" ? span.start_line : undefined;
  const last = typeof span.end_line === "number" ? span.end_line : first;
  const out: string[] = [];
  // Indentation kept: it is what places a context line in code.
  const line = (n: number | undefined, text: unknown): string => {
    const t = str(text) ?? "";
    return `  ${n !== undefined ? `${n}-` : "-"} ${t.length > MAX_LINE ? `${clipText(t, MAX_LINE)}…` : t}`;
  };
  const b = Array.isArray(before) ? before : [];
  b.forEach((t, i) => out.push(line(first !== undefined ? first - b.length + i : undefined, t)));
  (Array.isArray(after) ? after : []).forEach((t, i) => out.push(line(last !== undefined ? last + 1 + i : undefined, t)));
  return out;
}

/**
 * The list's header. A page says which items it holds and, where the tool counted the whole
 * answer (llmsearch's `total_count`, or `files_matched` for its per-file counts; llmastsearch's
 * `total_matches`), of how many: a first page of llmsearch said "41 matches:" for 120, and the
 * note that had given the total ("showing the first 41 of 120") is dropped on a page, since it
 * names a --limit the caller never gave.
 */
function listHeader(env: Rec, data: Rec, key: string, n: number): string {
  const page = env.page as Rec | undefined;
  const offset = typeof page?.offset === "number" ? page.offset : 0;
  const paged = typeof env.cursor === "string" || offset > 0;
  if (!paged) return `${counted(n, key)}:`;
  // mdsel_index pages its documents' headings (`data.documents[].headings`).
  const inner = typeof page?.list === "string" ? /\[\]\.(\w+)$/.exec(page.list)?.[1] : undefined;
  if (inner !== undefined && typeof page?.returned === "number") return `${counted(n, key)}, ${inner} ${offset + 1}-${offset + page.returned}:`;
  let total: unknown;
  if (env.tool === "llmsearch") total = key === "counts" ? data.files_matched : data.total_count;
  else if (env.tool === "llmastsearch") total = data.total_matches;
  const range = n === 0 ? `none from ${offset + 1}` : `${offset + 1}-${offset + n}`;
  return `${key} ${range}${typeof total === "number" ? ` of ${total}` : ""}:`;
}

export function renderText(env: Rec): string {
  const lines: string[] = [];
  const head = [str(env.tool), str(env.command) ?? str(env.operation_type)].filter(Boolean).join(" ");
  const status = str(env.status);
  const message = str(env.message);
  lines.push(`${head}${status ? `: ${status}` : ""}${message ? ` — ${oneLine(message)}` : ""}${env.partial === true ? " (partial)" : ""}`);
  // An answer that lists nothing is where a note's remediation is the way on ("the pattern matched
  // nothing": its regex does not match its own text, pass fixed_strings); with items it is noise.
  const listed = env.data && typeof env.data === "object" ? LIST_KEYS.map((k) => (env.data as Rec)[k]).find((v) => Array.isArray(v)) : undefined;
  const empty = Array.isArray(listed) && listed.length === 0;
  for (const d of (env.diagnostics as Rec[] | undefined) ?? []) {
    const way = empty && d.level !== "error" && str(d.remediation) ? ` — ${oneLine(str(d.remediation) ?? "", 400)}` : "";
    lines.push(`${str(d.level)} ${str(d.code)}: ${oneLine(str(d.message) ?? "")}${way}`);
  }
  // mdsel's errors name the selector they are about and what would resolve; its warnings say which
  // file a clashing namespace now names (`index_2`): without them a text-only client cannot recover.
  for (const e of (env.errors as Rec[] | undefined) ?? []) {
    // Both: with several documents in play (index, index_2, ...) the file says which one was meant.
    const about = [str(e.selector), str(e.file)].filter((x) => x !== undefined).join(" in ") || undefined;
    // Without suggestions the remediation is the way on ("File not found" said nothing more).
    const tries =
      Array.isArray(e.suggestions) && e.suggestions.length > 0
        ? ` — try: ${(e.suggestions as unknown[]).map((x) => str(x)).join(", ")}`
        : str(e.remediation)
          ? ` — ${oneLine(str(e.remediation) ?? "", 400)}`
          : "";
    lines.push(`error ${str(e.code)}: ${about !== undefined ? `${about}: ` : ""}${oneLine(str(e.message) ?? "")}${tries}`);
  }
  for (const w of (env.warnings as unknown[] | undefined) ?? []) if (typeof w === "string") lines.push(`warning: ${oneLine(w)}`);
  const err = env.error as Rec | undefined;
  if (err && typeof err === "object") lines.push(`error ${str(err.code)}${err.remediation ? ` — remediation: ${oneLine(str(err.remediation) ?? "")}` : ""}`);
  // A writer's result holds its list (splice log's operations) where a query has data.
  const data = (env.data ?? (Array.isArray((env.result as Rec | undefined)?.operations) ? env.result : undefined)) as Rec | null | undefined;
  if (data && typeof data === "object") {
    const key = LIST_KEYS.find((k) => Array.isArray(data[k]));
    if (key) {
      const items = data[key] as unknown[];
      lines.push(listHeader(env, data, key, items.length));
      for (const it of items) {
        const mdsel = env.tool === "mdsel" && it !== null && typeof it === "object";
        lines.push(itemLine(mdsel ? { ...(it as Rec), content: undefined } : it, str(data.count_of) ?? "matches", str(data.file)));
        if (mdsel) lines.push(...mdselDetail(it as Rec));
        else if (it !== null && typeof it === "object") lines.push(...contextLines(it as Rec));
      }
    } else if (env.status === undefined) {
      lines.push(oneLine(JSON.stringify(data)).slice(0, 1000));
    }
  }
  if (typeof env.cursor === "string") lines.push(`more: call again with cursor "${env.cursor}"`);
  return lines.join("\n");
}
