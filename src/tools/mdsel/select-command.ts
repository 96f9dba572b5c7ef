/** `mdsel select`: resolves each selector against the documents it names. */
import type { MdselSelectMatch, MdselSelectResponse, MdselUnresolved } from "../../contract/tools/mdsel.js";
import { MDSEL_CODES, type ErrorEntry } from "./errors.js";
import type { CommandResult } from "./index-command.js";
import { DocumentCache, discoverMarkdown, expandDirectories, isErrorEntry, noDocumentsError, sourcesFor, type Source, type Workspace } from "./load.js";
import { resolveSelector } from "./resolve.js";
import { parseSelector, SelectorSyntaxError, type Selector } from "./selector.js";
import { rankSuggestions } from "./suggest.js";

export interface SelectRequest {
  selectors: string[];
  /** Empty: the Markdown files of the current directory, parsed only when a selector names them. */
  files: string[];
}

/** `partial_results` is left out: `data.matches` already holds exactly the partial results. */
export async function selectCommand(ws: Workspace, req: SelectRequest): Promise<CommandResult<MdselSelectResponse, MdselSelectMatch>> {
  const warnings: string[] = [];
  const errors: ErrorEntry[] = [];
  const matches: MdselSelectMatch[] = [];
  const unresolved: MdselUnresolved[] = [];
  const explicit = req.files.length > 0;
  const sources = sourcesFor(ws, explicit ? await expandDirectories(ws, req.files) : discoverMarkdown(ws), warnings);
  const byNs = new Map(sources.map((s) => [s.namespace, s]));
  const cache = new DocumentCache(ws);
  const failedFiles = new Set<string>();
  let syntaxErrors = 0;

  // With explicit files, a file that cannot be read is an error even if no selector names it.
  if (explicit) {
    for (const src of sources) {
      const d = await cache.get(src);
      if (isErrorEntry(d)) {
        errors.push(d);
        failedFiles.add(src.namespace);
      }
    }
  }

  for (const raw of req.selectors) {
    let sel: Selector;
    try {
      sel = parseSelector(raw);
    } catch (e) {
      if (!(e instanceof SelectorSyntaxError)) throw e;
      syntaxErrors++;
      errors.push(await syntaxEntry(raw, e, byNs, cache));
      continue;
    }
    let targets: Source[];
    if (sel.namespace !== undefined) {
      const src = byNs.get(sel.namespace);
      if (!src) {
        // A file that could not be read (not found: its error is above) is no namespace to offer:
        // `readme::... missing/nope.md` said "available: nope" and suggested nope::...
        const names = [...byNs.keys()].filter((n) => !failedFiles.has(n));
        const rest = raw.slice(raw.indexOf("::"));
        errors.push({
          selector: raw,
          type: "NAMESPACE_NOT_FOUND",
          code: MDSEL_CODES.namespace_not_found,
          message:
            names.length === 0
              ? `Namespace '${sel.namespace}' not found: no Markdown documents ${!explicit ? `in ${ws.cwd}` : byNs.size > 0 ? "could be read" : "were given"}`
              : `Namespace '${sel.namespace}' not found; available: ${names.slice(0, 20).join(", ")}${names.length > 20 ? ", ..." : ""}`,
          suggestions: rankSuggestions(raw, names.map((n) => `${n}${rest}`)),
          remediation: "A namespace is the file name without its extension, lower-cased (README.md is 'readme').",
        });
        continue;
      }
      targets = [src];
    } else {
      targets = sources;
      if (targets.length === 0) {
        errors.push({ ...noDocumentsError(ws), selector: raw });
        continue;
      }
    }
    for (const src of targets) {
      const doc = await cache.get(src);
      if (isErrorEntry(doc)) {
        if (!failedFiles.has(src.namespace)) {
          failedFiles.add(src.namespace);
          errors.push(doc);
        }
        continue;
      }
      const r = resolveSelector(doc, sel);
      if (r.ok) matches.push(r.match);
      else {
        unresolved.push(r.unresolved);
        errors.push({
          selector: raw,
          file: doc.filePath,
          type: "SELECTOR_NOT_FOUND",
          code: MDSEL_CODES.selector_not_found,
          message: r.unresolved.reason,
          suggestions: r.unresolved.suggestions,
          remediation: `Run 'mdsel index ${doc.filePath}' to list the selectors that exist.`,
        });
      }
    }
  }

  const data: MdselSelectResponse = { matches, unresolved };
  const failed = errors.length > 0;
  const outcome = !failed ? "ok" : matches.length > 0 ? "partial" : syntaxErrors === req.selectors.length ? "usage" : "failure";
  return {
    outcome,
    data,
    ...(unresolved.length ? { unresolved_selectors: unresolved.map((u) => u.selector) } : {}),
    ...(warnings.length ? { warnings } : {}),
    ...(errors.length ? { errors } : {}),
  };
}

/**
 * INVALID_SELECTOR with the fault's position; suggestions put each valid spelling in place of
 * the faulty part, preferring those that exist in the named document when it can be read.
 */
async function syntaxEntry(
  raw: string,
  e: SelectorSyntaxError,
  byNs: Map<string, Source>,
  cache: DocumentCache,
): Promise<ErrorEntry> {
  let suggestions: string[] = [];
  if (e.fixes) {
    const [s, t] = e.fixes.replace;
    const fixed = e.fixes.with.map((w) => `${raw.slice(0, s)}${w}${raw.slice(t)}`);
    const valid = fixed.filter((f) => {
      try {
        parseSelector(f);
        return true;
      } catch {
        return false;
      }
    });
    const ns = /^\s*([^:]+)::/.exec(raw)?.[1]?.toLowerCase();
    const src = ns === undefined ? undefined : byNs.get(ns);
    let ranked = valid;
    if (src) {
      const doc = await cache.get(src);
      if (!isErrorEntry(doc)) {
        const existing = valid.filter((f) => resolveSelector(doc, parseSelector(f)).ok);
        if (existing.length > 0) ranked = existing;
      }
    }
    suggestions = rankSuggestions(raw, ranked);
  }
  return {
    selector: raw,
    type: "INVALID_SELECTOR",
    code: MDSEL_CODES.invalid_selector,
    message: e.message,
    ...(suggestions.length ? { suggestions } : {}),
    position: { start: e.start, end: e.end },
    remediation: "Selectors look like 'readme::heading:h2[0]/block:code[0]?full=true'; see 'mdsel --help'.",
  };
}
