/**
 * Parsed trees kept between queries in a long-lived process (daemon, MCP server), when the warm
 * cache is on. A tree is reused only while the warm cache hands out the very same bytes object
 * for its file (the cache re-stats the file on every read and replaces the object when anything
 * changed), and for the same language, so a reused tree is always the tree of the bytes on disk.
 *
 * Trees live in native memory, about 23 MB per MB of TypeScript source (typeorm's 10.7 MB of
 * .ts held 250 MB), so they are bounded by the source bytes they cover (LLMTOOLS_WARM_TREES_MB,
 * default 16 MB of source; 0 keeps none), least recently used first out.
 */
import type { Tree } from "tree-sitter";
import type { DecodedText } from "../../text/decode.js";
import { type CachedFile, type WarmCache, warmCache } from "../../text/warm-cache.js";
import type { LanguageId } from "../../lang/registry.js";

export interface ParsedFile {
  bytes: Buffer;
  decoded: DecodedText;
  tree: Tree;
}

interface Entry extends ParsedFile {
  file: CachedFile;
  language: LanguageId;
}

export class TreeCache {
  private readonly map = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    readonly files: WarmCache,
    private readonly maxSourceBytes: number,
  ) {}

  /** The file's current bytes when the warm cache keeps them whole, else undefined (cold path). */
  current(abs: string): CachedFile | undefined {
    const f = this.files.read(abs);
    return f && f.earlyNul === undefined ? f : undefined;
  }

  /** The cached tree of these exact bytes, if any. */
  get(abs: string, file: CachedFile, language: LanguageId): ParsedFile | undefined {
    const e = this.map.get(abs);
    if (!e) return undefined;
    if (e.file !== file || e.language !== language) {
      this.drop(abs);
      return undefined;
    }
    this.map.delete(abs);
    this.map.set(abs, e);
    return e;
  }

  /** Whether a tree for `abs` is kept and still matches its file (no read counted as a use). */
  has(abs: string, language: LanguageId): boolean {
    const e = this.map.get(abs);
    return e !== undefined && e.language === language && this.current(abs) === e.file;
  }

  put(abs: string, file: CachedFile, language: LanguageId, parsed: ParsedFile): void {
    if (this.maxSourceBytes <= 0 || file.bytes.length > this.maxSourceBytes) return;
    this.drop(abs);
    this.map.set(abs, { ...parsed, file, language });
    this.bytes += file.bytes.length;
    while (this.bytes > this.maxSourceBytes) {
      const oldest = this.map.keys().next();
      if (oldest.done) break;
      this.drop(oldest.value);
    }
  }

  private drop(abs: string): void {
    const e = this.map.get(abs);
    if (!e) return;
    this.map.delete(abs);
    this.bytes -= e.file.bytes.length;
  }

  stats(): { trees: number; source_bytes: number; max_source_bytes: number } {
    return { trees: this.map.size, source_bytes: this.bytes, max_source_bytes: this.maxSourceBytes };
  }
}

/**
 * Files a query needed whose trees a worker thread parsed (and so were not kept): parsed again
 * here in slices of a few ms between requests, so the next query finds them warm.
 */
const backlog = new Map<string, { language: LanguageId; parse: () => void }>();
let draining = false;

export function warmLater(abs: string, language: LanguageId, parse: () => void): void {
  backlog.set(abs, { language, parse });
  if (draining) return;
  draining = true;
  const slice = (): void => {
    const until = performance.now() + 10;
    for (const [abs, job] of backlog) {
      backlog.delete(abs);
      if (!trees?.has(abs, job.language)) job.parse();
      if (performance.now() > until) break;
    }
    if (backlog.size > 0) setTimeout(slice, 1).unref();
    else draining = false;
  };
  setTimeout(slice, 1).unref();
}

let trees: TreeCache | undefined;

/** The tree cache of the process's warm cache (undefined when the warm cache is off). */
export function treeCache(): TreeCache | undefined {
  const files = warmCache();
  if (!files) return undefined;
  if (!trees || trees.files !== files) {
    const mb = Number(process.env.LLMTOOLS_WARM_TREES_MB);
    trees = new TreeCache(files, (Number.isFinite(mb) && mb >= 0 && process.env.LLMTOOLS_WARM_TREES_MB !== "" ? mb : 16) * 1024 * 1024);
  }
  return trees;
}
