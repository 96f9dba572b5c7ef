/**
 * From user paths to documents: namespaces (file name without extension, lower-cased, so
 * `readme` names README.md), collisions, discovery of the Markdown files of a directory,
 * and lazy parsing so a selector touches only the documents it names.
 */
import { existsSync, readdirSync, realpathSync, statSync } from "node:fs";
import { ToolError } from "../../contract/errors.js";
import { resolveInRoot } from "../../text/root.js";
import { basename, extname, isAbsolute, relative, resolve, sep } from "node:path";
import { buildDocument, readMarkdownFile, type LoadOptions, type MdDocument } from "./document.js";
import { MDSEL_CODES, MdselFault, TOOL, type ErrorEntry } from "./errors.js";

export const MARKDOWN_EXTENSIONS = [".md", ".markdown", ".mdown", ".mkd", ".mkdn", ".mdx"];

export interface Source {
  namespace: string;
  /** As printed: relative to the workspace root with `/`, or absolute when outside it. */
  filePath: string;
  abs: string;
  /** The path as the user wrote it, for error messages (they should recognise their own input). */
  given: string;
}

export interface Workspace {
  cwd: string;
  root: string;
  maxBytes?: number;
  /** Read regular files only (LoadOptions.regularOnly): the MCP server sets it. */
  regularOnly?: boolean;
}

export function namespaceOf(path: string): string {
  return basename(path, extname(path)).toLowerCase();
}

export function displayPath(ws: Workspace, abs: string): string {
  const rel = relative(ws.root, abs);
  if (rel === "" || rel.startsWith(`..${sep}`) || rel === ".." || isAbsolute(rel)) return abs;
  return sep === "/" ? rel : rel.split(sep).join("/");
}

/**
 * Where a path the user gave lies: from the current directory when it exists there, else from the
 * workspace root when it exists there, as llmsearch and the other tools take paths (resolveInRoot),
 * since the paths mdsel prints are root-relative. `mdsel --root R index README.md` run outside R,
 * or a `file_path` from an index run in a subdirectory, was "File not found".
 */
export function pathFrom(ws: Workspace, p: string): string {
  const fromCwd = resolve(ws.cwd, p);
  if (isAbsolute(p) || existsSync(fromCwd)) return fromCwd;
  const fromRoot = resolve(ws.root, p);
  return existsSync(fromRoot) ? fromRoot : fromCwd;
}

/** One Source per file (a file named twice is one); a namespace already taken gets `_2`, `_3`, ... and a warning. */
export function sourcesFor(ws: Workspace, paths: string[], warnings: string[]): Source[] {
  const taken = new Set<string>();
  const seen = new Set<string>();
  const out: Source[] = [];
  for (const p of paths) {
    const abs = pathFrom(ws, p);
    // A file named twice (`README.md ./README.md`, or a file and its directory) is one document:
    // a second copy took `readme_2` with a warning that the file's own namespace was taken.
    if (seen.has(abs)) continue;
    seen.add(abs);
    const base = namespaceOf(p) || "doc";
    let ns = base;
    for (let k = 2; taken.has(ns); k++) ns = `${base}_${k}`;
    if (ns !== base) warnings.push(`namespace '${base}' is taken; ${displayPath(ws, abs)} is '${ns}'`);
    taken.add(ns);
    out.push({ namespace: ns, filePath: displayPath(ws, abs), abs, given: p });
  }
  return out;
}

/**
 * Each directory among `paths` replaced by the Markdown files under it, in path order, found as
 * llmsearch walks (ignore rules, hidden files and symlinks left out), each spelled as the
 * directory was plus its path below it (`docs` -> `docs/guide/intro.md`). A directory without
 * one, or outside the root, stays as given, for the file check's own refusal. The walker is
 * loaded only when a directory is named: a run on files pays nothing for it.
 */
export async function expandDirectories(ws: Workspace, paths: string[]): Promise<string[]> {
  const isDir = (p: string): boolean => {
    try {
      return statSync(pathFrom(ws, p)).isDirectory();
    } catch {
      return false;
    }
  };
  if (!paths.some(isDir)) return paths;
  const { walkFiles } = await import("../../text/walk.js");
  const out: string[] = [];
  for (const p of paths) {
    if (!isDir(p)) {
      out.push(p);
      continue;
    }
    let abs: string;
    let root: string;
    try {
      root = realpathSync(ws.root);
      abs = resolveInRoot(TOOL, root, pathFrom(ws, p), ws.cwd).abs;
    } catch {
      out.push(p);
      continue;
    }
    const found = walkFiles({ root, start: [abs] })
      .filter((e) => MARKDOWN_EXTENSIONS.includes(extname(e.abs).toLowerCase()))
      .map((e) => {
        const below = relative(abs, e.abs).split(sep).join("/");
        return p === "." || p === "./" ? below : `${p.replace(/[\\/]+$/, "")}/${below}`;
      });
    out.push(...(found.length > 0 ? found : [p]));
  }
  return out;
}

/** The Markdown files directly in the current directory, sorted, for selectors without files. */
export function discoverMarkdown(ws: Workspace): string[] {
  let names: string[];
  try {
    names = readdirSync(ws.cwd, { withFileTypes: true })
      .filter((e) => (e.isFile() || e.isSymbolicLink()) && MARKDOWN_EXTENSIONS.includes(extname(e.name).toLowerCase()))
      .map((e) => e.name);
  } catch {
    return [];
  }
  return names.sort();
}

/**
 * Nothing outside the workspace root is read (a path there, or a symlink leading there), except
 * a pipe or device named on purpose (`mdsel index <(curl …)`): it is no file of another tree.
 */
function assertReadable(ws: Workspace, src: Source): void {
  let st;
  try {
    st = statSync(src.abs);
  } catch {
    return; // Not there: readMarkdownFile says so.
  }
  if (!st.isFile() && !st.isDirectory()) return;
  try {
    resolveInRoot(TOOL, ws.root, src.abs, ws.cwd);
  } catch (e) {
    if (!(e instanceof ToolError)) throw e;
    throw new MdselFault({
      file: src.given,
      type: "PROCESSING_ERROR",
      code: MDSEL_CODES.outside_root,
      message: `Outside the workspace root: ${src.given} ${realpathSync(src.abs) === src.abs ? "lies" : "resolves (through a symlink)"} outside ${ws.root}`,
      remediation: "Name a file inside the workspace root, or pass --root DIR to widen it.",
    });
  }
}

export async function loadDocument(ws: Workspace, src: Source): Promise<MdDocument> {
  assertReadable(ws, src);
  const options: LoadOptions = { ...(ws.maxBytes === undefined ? {} : { maxBytes: ws.maxBytes }), ...(ws.regularOnly ? { regularOnly: true } : {}) };
  const bytes = readMarkdownFile(src.abs, src.given, options);
  return buildDocument(bytes, src.namespace, src.filePath, src.given);
}

/** Loads each source once; failures are remembered as ErrorEntries, never thrown twice. */
export class DocumentCache {
  private readonly done = new Map<string, MdDocument | ErrorEntry>();
  constructor(private readonly ws: Workspace) {}

  async get(src: Source): Promise<MdDocument | ErrorEntry> {
    const hit = this.done.get(src.namespace);
    if (hit) return hit;
    let out: MdDocument | ErrorEntry;
    try {
      out = await loadDocument(this.ws, src);
    } catch (e) {
      if (!(e instanceof MdselFault)) throw e;
      out = e.entry;
    }
    this.done.set(src.namespace, out);
    return out;
  }
}

export function isErrorEntry(x: MdDocument | ErrorEntry): x is ErrorEntry {
  return "type" in x && "code" in x && !("headings" in x);
}

export function noDocumentsError(ws: Workspace): ErrorEntry {
  return {
    type: "FILE_NOT_FOUND",
    code: MDSEL_CODES.no_documents,
    message: `No Markdown files given and none found in ${ws.cwd}`,
    remediation: "Pass the files to read, or run mdsel in the directory that holds them.",
  };
}
