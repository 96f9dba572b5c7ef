/**
 * Building and refreshing the index. The first run indexes everything; later runs compare each
 * file with what was stored (size and mtime first, then the content's sha256) and touch only
 * what changed: changed files are re-extracted, deleted ones removed, and references from other
 * files whose meaning may have changed (same names as symbols that came or went) re-resolved.
 */
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import type * as WorkerThreads from "node:worker_threads";
import { existsSync, statSync } from "node:fs";
import { cpuTicks } from "../text/cpu-ticks.cjs";
import { ToolError } from "../contract/errors.js";
import { basename, join } from "node:path";
import { timestamp } from "../contract/ids.js";
import { packageVersion } from "../contract/version.js";
import { collectGarbage } from "../lang/heap.js";
import { languageForPath, sameLanguage } from "../lang/registry.js";
import { walkFiles } from "../text/walk.js";
import { sizeAndMtime } from "../text/stat.js";
import { COLD_CACHE_KB, DB_CACHE_KB, type DB, DROP_SECONDARY_INDEXES, REF_INPUT_INDEXES, SECONDARY_INDEXES, SYMBOL_INDEXES, SYMBOL_SEARCH_INDEX, acquireWriterLock, finishColdReferences, getMeta, openDb, removeDb, setMeta } from "./db.js";
import { type FileRows, arityOf, callerOf } from "./facts.js";
import { goDirs, goPackageChanges, recordGoPackages } from "./go-packages.js";
import { runPool } from "./pool.js";
import { counts } from "./read.js";
import { type FileOutcome, type FileTask, type SkipReason, processFile } from "./process-file.js";
import { DEFAULT_MAX_FILE_BYTES, MAGELLAN_CODES } from "./codes.js";
import { coldImpactSteps, type ImpactSnapshot, impactSnapshot, newConfigs, updateImpact } from "./imports/index.js";
import { configsChanged } from "./imports/repo.js";
import { type RefRow, type ResolvedUnit, Resolver, TYPE_KINDS, moduleStems, writtenType } from "./resolve.js";
import { type ResolveUnit, resolveInWorkers } from "./resolve-pool.js";
import { refKey, rowsResolutionInputs, Store, type RefOutcome, type SignedSymbol, type StoredFile, signature, signed } from "./store.js";

export const DEFAULT_MAX_BYTES = DEFAULT_MAX_FILE_BYTES;
/** Below this many files to (re)read, threads cost more to start than they save. */
const INLINE_LIMIT = 32;
/**
 * A file larger than this is extracted in a worker even in a small run: a worker's heap is bounded
 * and its death costs one skipped file, where this thread running out of memory would lose the
 * whole run and its envelope.
 */
const INLINE_MAX_BYTES = 1024 * 1024;

export interface IndexOptions {
  root: string;
  dbPath: string;
  rebuild?: boolean;
  maxBytes?: number;
  threads?: number;
  /** Called as files are processed (for a progress bar). */
  onProgress?: (done: number, total: number) => void;
  /**
   * Only these root-relative files (a file watcher's changes, or what a writer such as splice
   * touched), instead of walking the tree: each is re-read if it changed, or removed from the
   * index if it is gone; no other file is looked at. The caller vouches that the walk would list
   * them (ignore rules are not checked). Ignored on a cold index, which needs the walk.
   */
  paths?: string[];
}

export interface SkippedFile {
  path: string;
  reason: SkipReason | "symlink";
  detail: string;
}

export interface IndexResult {
  mode: "full" | "incremental" | "rebuild";
  files_scanned: number;
  files_indexed: number;
  files_unchanged: number;
  files_removed: number;
  files_skipped: number;
  skipped: SkippedFile[];
  /** Files indexed from a tree with syntax errors (what tree-sitter recovered). */
  parse_recovered: string[];
  references_resolved: number;
  changed_paths: string[];
  removed_paths: string[];
  duration_ms: number;
  files: number;
  symbols: number;
  references: number;
  calls: number;
}

/**
 * The planner's statistics date from the last ANALYZE. A table that has grown tenfold since (a
 * first index of a nearly empty tree, then real code) looks tiny to it, and it scans the whole
 * table for every name an incremental run looks up instead of using the index: quadratic (an
 * added 20,000-function file took 27 s instead of 3). This re-analyzes only such tables (0x10000:
 * every table, not only those this connection used), on a sample.
 */
function refreshStatistics(db: DB): void {
  db.pragma("analysis_limit = 1000");
  db.pragma("optimize = 0x10002");
}

export async function indexTree(options: IndexOptions): Promise<IndexResult> {
  const t0 = performance.now();
  const release = await acquireWriterLock(options.dbPath);
  try {
    if (options.rebuild) removeDb(options.dbPath);
    const db = openDb(options.dbPath, { write: true });
    try {
      const born = statSync(options.dbPath);
      // Readers meanwhile say that the index is being updated (indexState); a killed run leaves
      // a dead pid here, which readers ignore.
      db.transaction(() => setMeta(db, "index_running", String(process.pid)))();
      const result = await indexWith(db, options, t0);
      db.transaction(() => setMeta(db, "index_running", "0"))();
      // `rm -rf .magellan` during a run unlinks the file this connection writes to: every row
      // goes with it, and a reader (or a worker opening the path) finds an empty index at the
      // path. Counts of what no reader will see are no success.
      const now = statSync(options.dbPath, { throwIfNoEntry: false });
      if (!now || now.ino !== born.ino || now.dev !== born.dev) {
        throw new ToolError({
          code: MAGELLAN_CODES.index_removed,
          error: "index_removed",
          message: `the index database ${options.dbPath} was ${now ? "replaced" : "deleted"} while this run wrote to it: what the run stored went with the old file`,
          remediation: "Run 'magellan index' again, and do not delete or move .magellan/ while an index runs.",
        });
      }
      return result;
    } finally {
      db.close();
    }
  } finally {
    release();
  }
}

async function indexWith(db: DB, options: IndexOptions, t0: number): Promise<IndexResult> {
  const { root } = options;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const rootName = basename(root);
  const store = new Store(db);
  // A cold run killed half-way stored files whose references were never written: start over.
  // So does an index another version of magellan built: its unchanged files would keep what that
  // version extracted and resolved (a fix to a query reached only the files edited since), and
  // the index would equal no rebuild by either.
  const builtBy = getMeta(db, "built_by");
  const otherVersion = builtBy !== packageVersion() && (builtBy !== undefined || (db.prepare("SELECT count(*) FROM files").pluck().get() as number) > 0);
  if (getMeta(db, "resolve_pending") === "1" || otherVersion) {
    db.transaction(() => db.exec("DELETE FROM refs; DELETE FROM symbols; DELETE FROM imports; DELETE FROM deps; DELETE FROM impact_edges; DELETE FROM files;"))();
  }
  // The workspace folder renamed (or the index moved with it): every canonical_fqn starts with
  // the folder's name, and the files the run does not re-read must say the new one, as a rebuild's.
  const lastRoot = getMeta(db, "root");
  if (lastRoot && basename(lastRoot) !== rootName) {
    const before = `${basename(lastRoot)}::`;
    db.prepare("UPDATE symbols SET canonical_fqn = ? || substr(canonical_fqn, ?) WHERE substr(canonical_fqn, 1, ?) = ?").run(`${rootName}::`, before.length + 1, before.length, before);
  }
  const stored = new Map<string, StoredFile>(store.allFiles().map((f) => [f.path, f]));
  const cold = stored.size === 0;
  const skipped: SkippedFile[] = [];
  // Entries the walk met but could not look into (symlinks, unreadable): scanned and skipped.
  let walkSkipped = 0;
  // A cold index needs the walk, whatever the caller knows it touched.
  const only = options.paths && !cold ? new Set(options.paths) : undefined;
  const walked = only
    ? [...only].sort().flatMap((rel) => (existsSync(join(root, rel)) ? [{ abs: join(root, rel), rel }] : []))
    : walkFiles({
        root,
        onSkip: (rel, reason) => {
          walkSkipped++;
          skipped.push({
            path: rel,
            reason: reason === "special" ? "unreadable" : reason,
            detail: reason === "symlink" ? "symbolic link not followed" : reason === "special" ? "not a regular file" : "unreadable",
          });
        },
      });
  const tasks: FileTask[] = [];
  const seen = new Set<string>();
  let unchanged = 0;
  for (const e of walked) {
    const lang = languageForPath(e.rel);
    if (!lang) continue;
    seen.add(e.rel);
    const old = stored.get(e.rel);
    const same = old !== undefined && sameLanguage(old.language, lang.id, e.rel);
    if (old && same) {
      try {
        const st = sizeAndMtime(e.abs);
        if (st && st.size === old.size && st.mtimeMs === old.mtime_ms) {
          unchanged++;
          continue;
        }
      } catch {
        // Read errors are reported by processFile.
      }
    }
    tasks.push({ abs: e.abs, rel: e.rel, language: lang.id, knownHash: same ? old?.hash : undefined, maxBytes, rootName });
  }
  const removed = [...stored.values()].filter((f) => !seen.has(f.path) && (only === undefined || only.has(f.path)));
  if (process.env.MAGELLAN_DEBUG) {
    process.stderr.write(`magellan: started at ${Math.round(t0)} ms of the process; walked ${walked.length} files, ${tasks.length} to read at ${Math.round(performance.now() - t0)} ms\n`);
  }
  const indexedAt = timestamp();
  const changedIds: number[] = [];
  const changedPaths: string[] = [];
  // Symbols as they were (in changed or removed files) and as they are now: only their
  // difference can change the resolution of references in other files.
  const oldSigs = new Map<string, SignedSymbol>();
  const newSigs = new Map<string, SignedSymbol>();
  const touchedPaths = new Set<string>();
  const forget = (fileId: number, path: string): void => {
    for (const s of store.symbolSignatures(fileId)) oldSigs.set(s.sig, s);
    touchedPaths.add(path);
  };
  const parseRecovered: string[] = [];
  let done = 0;
  // An incremental run of a few files stores their references only once every symbol is known,
  // resolved as they are inserted. (A cold index stores them unresolved at once and resolves
  // them afterwards unit by unit, so that its memory does not grow with the repository.)
  const deferred: { id: number; rows: FileRows }[] = [];
  // Held references cost ~150 bytes each: past this many (a very large repository) they are
  // stored unresolved at once and resolved by reading them back, as memory matters more then.
  const deferLimit = Number(process.env.MAGELLAN_DEFER_LIMIT) || 2_000_000;
  const inline = tasks.length <= INLINE_LIMIT;
  // An incremental run keeps how a changed file's references were resolved before: when no
  // symbol, file or import anywhere changed in the run (an edit inside a function body, a
  // comment), each reference resolves as it did, by what resolution reads of it (refKey), and
  // only references not seen before need the resolver.
  const priorOutcomes = new Map<number, Map<string, RefOutcome | undefined>>();
  let addedFiles = 0;
  // Changed files' impact rows as they were (see ImpactSnapshot).
  const impactBefore = new Map<number, ImpactSnapshot>();
  let deferredRefs = 0;
  let spilled = false;

  const debug = process.env.MAGELLAN_DEBUG
    ? (m: string): void => {
        const mem = process.memoryUsage();
        process.stderr.write(`magellan: ${m} at ${Math.round(performance.now() - t0)} ms (rss ${mem.rss >> 20} MB, main heap ${mem.heapUsed >> 20} MB${cpuTimes()})\n`);
      }
    : undefined;
  // One copy of each reference name, kind and qualifier among the held rows (structured clone
  // gives every row its own): a third of their memory on a real tree.
  const interned = new Map<string, string>();
  const intern = (v: string): string => {
    const k = interned.get(v);
    if (k !== undefined) return k;
    interned.set(v, v);
    return v;
  };
  const apply = (outs: FileOutcome[]): void => {
    db.transaction(() => {
      for (const o of outs) {
        const old = stored.get(o.rel);
        if (o.kind === "unchanged") {
          unchanged++;
          if (old) store.touch(old.id, o.size, o.mtime_ms);
        } else if (o.kind === "skipped") {
          skipped.push({ path: o.rel, reason: o.reason, detail: o.detail });
          if (old) {
            forget(old.id, old.path);
            store.removeFile(old.id);
            removed.push(old);
          }
        } else {
          if (old) forget(old.id, old.path);
          else addedFiles++;
          if (old && inline && !cold && !spilled && store.resolutionInputs(old.id) === rowsResolutionInputs(o.rows)) {
            priorOutcomes.set(old.id, store.refOutcomes(old.id));
          }
          touchedPaths.add(o.rel);
          if (old && !cold) {
            const snap = impactSnapshot(db, old.id, o.language);
            if (snap) impactBefore.set(old.id, snap);
          }
          const defer = !spilled && !cold && inline;
          const id = store.writeFile(old?.id, o.rel, o.language, o.hash, o.size, o.mtime_ms, indexedAt, o.rows, !defer);
          if (defer) {
            deferred.push({ id, rows: heldForResolution(o.rows, intern) });
            deferredRefs += o.rows.refs.names.length;
            if (deferredRefs > deferLimit) {
              for (const d of deferred) store.insertRefs(d.id, d.rows);
              deferred.length = 0;
              spilled = true;
              debug?.(`more than ${deferLimit} references held: storing them unresolved`);
            }
          }
          // (Only an incremental run compares symbols before and after.)
          if (!cold) for (const s of o.rows.symbols) newSigs.set(signature(s), signed(s));
          changedIds.push(id);
          changedPaths.push(o.rel);
          if (o.rows.has_errors) parseRecovered.push(o.rel);
        }
      }
    })();
    if (debug && Math.floor(done / 500) !== Math.floor((done + outs.length) / 500)) debug(`${done + outs.length} files`);
    // The rows handed over are garbage once stored; see collectGarbage below.
    if (cold && Math.floor(done / 2000) !== Math.floor((done + outs.length) / 2000)) collectGarbage();
    done += outs.length;
    options.onProgress?.(done, tasks.length);
  };

  /**
   * Stores deferred[from, to) with their references resolved; returns how many references.
   * `known[k]`: earlier outcomes of deferred[k]'s references, by index, that still hold (see
   * priorOutcomes); the others go through the resolver.
   */
  const storeDeferred = (resolver: Resolver, from: number, to: number, known?: ((RefOutcome | undefined)[] | undefined)[]): number => {
    let n = 0;
    for (let k = from; k < to; k++) {
      const d = deferred[k] as { id: number; rows: FileRows };
      const { names, kinds, qualifiers, receiverTypes } = d.rows.refs;
      const before = known?.[k];
      store.insertRefs(
        d.id,
        d.rows,
        (i, caller) =>
          before?.[i] ??
          resolver.resolveRef({
            id: 0,
            file_id: d.id,
            name: names[i] as string,
            kind: kinds[i] as string,
            qualifier: qualifiers[i] ?? null,
            caller_symbol_id: caller,
            arity: arityOf(d.rows.refs, i),
            receiver_type: receiverTypes[i] ?? null,
          }),
      );
      n += names.length;
      // Let the rows go as soon as they are stored.
      deferred[k] = undefined as unknown as { id: number; rows: FileRows };
    }
    return n;
  };

  if (cold) {
    db.exec(DROP_SECONDARY_INDEXES);
    db.transaction(() => setMeta(db, "resolve_pending", "1"))();
    // A cold index appends rows (a table's last pages) and builds indexes in temporary files: a
    // small page cache does as well as the 32 MB one queries use. On the 76 MB mixed tree the
    // peak was 319-330 MB instead of 357-367 MB, in the same time (3 interleaved runs each).
    db.pragma(`cache_size = -${COLD_CACHE_KB}`);
  } else db.exec(SECONDARY_INDEXES);
  let resolved = 0;
  /** An incremental run's re-resolution, once its files are stored. */
  const reresolve = (): void => {
    for (const f of removed) {
      if (!stored.has(f.path)) continue;
      forget(f.id, f.path);
      store.removeFile(f.id);
    }
    refreshStatistics(db);
    const resolver = new Resolver(db, root);
    const changed = new Set(changedIds);
    const removedSyms = [...oldSigs].filter(([k]) => !newSigs.has(k)).map(([, v]) => v);
    const addedSyms = [...newSigs].filter(([k]) => !oldSigs.has(k)).map(([, v]) => v);
    // Every changed file must keep its imports and symbol order too: resolution in one file can
    // follow another's imports (re-exports).
    const stable = removedSyms.length === 0 && addedSyms.length === 0 && removed.length === 0 && addedFiles === 0 && priorOutcomes.size === changedIds.length;
    if (deferred.length > 0) {
      // Each deferred file's earlier outcomes, by reference index; only the rest are looked up.
      const known = deferred.map((d) => {
        const outcomes = stable ? priorOutcomes.get(d.id) : undefined;
        const { names, kinds, qualifiers, receiverTypes } = d.rows.refs;
        return outcomes && names.map((name, i) => outcomes.get(refKey(name, kinds[i] as string, qualifiers[i] ?? null, callerOf(d.rows, i), arityOf(d.rows.refs, i), receiverTypes[i] ?? null)));
      });
      resolver.prefetch(deferred.flatMap((d, k) => d.rows.refs.names.filter((_, i) => known[k]?.[i] === undefined)));
      resolved += storeDeferred(resolver, 0, deferred.length, known);
    } else {
      // In slices of files: a run that changed much of the tree (a branch switch) would
      // otherwise hold every changed reference at once.
      for (let i = 0; i < changedIds.length; i += 256) resolved += resolver.resolveRows(resolver.refsOfFiles(changedIds.slice(i, i + 256)));
    }
    // The changed files' references are in now: the lookups below must see their number.
    refreshStatistics(db);
    // A configuration that resolution read changed or appeared (tsconfig.json's paths, go.mod's
    // module path, a new package.json): what any import denotes may have changed, so every
    // reference is resolved again, as a rebuild would (edits to them were ignored: the index kept
    // `imported` edges a rebuild no longer had).
    const addedPaths = changedPaths.filter((p) => !stored.has(p));
    const removedPaths = removed.map((f) => f.path);
    const goPackages = goPackageChanges(db, root, goDirs([...touchedPaths, ...addedPaths, ...removedPaths]));
    const configs = JSON.parse(getMeta(db, "impact_configs") ?? "{}") as Record<string, string>;
    if (configsChanged(root, configs) || newConfigs(root, configs, addedPaths)) {
      const ids = db.prepare("SELECT id FROM files ORDER BY id").pluck().all() as number[];
      for (let i = 0; i < ids.length; i += 256) resolved += resolver.resolveRows(resolver.refsOfFiles(ids.slice(i, i + 256)));
      debug?.("a configuration changed: every reference resolved again");
      setMeta(db, "last_index_time", indexedAt);
      return;
    }
    const names = [...new Set([...removedSyms, ...addedSyms].map((x) => x.name))];
    const liveIds = new Set([...newSigs.values()].map((x) => x.id));
    // Every reference of another file whose resolution read something that changed, each once:
    // a rebuild must find the index exactly as this leaves it.
    const again = new Map<number, RefRow>();
    const add = (rows: RefRow[]): void => {
      for (const r of rows) again.set(r.id, r);
    };
    // References under the name of a symbol that came or went (its candidates changed).
    add(resolver.refsNamed(names, changed));
    // A type that came, went or changed its bases changes what the types extending it inherit,
    // and so does one with bases in a changed file whose imports changed (they say what its bases
    // are): the references of the files whose types extend it (and of those extending them) are
    // resolved again. A field's declared type says what `this.f.m()` reaches: the references
    // through a field are resolved again when its type changed, when that type (or one it
    // extends) is among those, or when the field's file changed its imports. (An edit that keeps
    // every changed file's imports and symbols, the usual save, has its files in priorOutcomes
    // and needs none of this.)
    const inputsChanged = priorOutcomes.size !== changedIds.length;
    const types = new Set<string>();
    const fields = new Set<string>();
    // What a chain of calls gives follows each link's declared type, as the link's file names it.
    const links = new Set(names);
    const note = (x: SignedSymbol, cameOrWent: boolean): void => {
      // (A type alias too: Go's `type Attr int32` is a type whose methods a field or local of it reaches.)
      if ((TYPE_KINDS.has(x.kind) || x.kind === "type") && (cameOrWent || (inputsChanged && x.bases !== null))) types.add(x.name);
      if (x.kind === "field" && (cameOrWent || (inputsChanged && x.declared_type !== null))) fields.add(x.name);
      if (inputsChanged && x.declared_type !== null) links.add(x.name);
    };
    for (const [sig, x] of oldSigs) note(x, !newSigs.has(sig));
    for (const [sig, x] of newSigs) note(x, !oldSigs.has(sig));
    const extending = new Set<string>();
    if (types.size > 0) add(resolver.refsOfFiles(resolver.subclassFiles(types, extending).filter((id) => !changed.has(id))));
    if (extending.size > 0) for (const f of resolver.fieldsOfTypes(extending)) fields.add(f);
    if (fields.size > 0) add(resolver.refsThroughFields(fields, changed));
    // A chain through a member of a type that came, went or changed its bases, or through a link
    // whose declared type did (or might read anew).
    for (const n of [...fields, ...extending]) links.add(n);
    add(resolver.refsThroughChains(links, changed));
    // A parameter's or local's declared type that came, went or changed its bases says anew
    // whose member `s.m()` is (and so do those extending it); so does any symbol of its name
    // coming or going (a name no symbol has is a library's), and a file coming or going for a
    // qualified one (`pkg.T`: what the import reaches).
    const pathsCame = [...addedPaths, ...removedPaths];
    const qualifiedIn = new Set(pathsCame.length > 0 ? resolver.importersOf(pathsCame) : []);
    add(resolver.refsOfReceiverTypes(new Set([...types, ...extending, ...names]), changed, qualifiedIn));
    // A Go package whose name changed: what its importers' `a.F()` reach (or `a` misses).
    for (const g of goPackages) add(resolver.refsThroughGoPackage(g.dir, g.names, changed));
    // Edges into changed files under another name (import aliases) whose target went away.
    add(resolver.refsTargeting(removedSyms.map((x) => x.id).filter((id) => !liveIds.has(id)), changed));
    // `UserRepository.find()`: a capitalised qualifier that names no symbol anywhere is a
    // library type, whose members are not the repository's; a class of that name appearing or
    // going away anywhere changes the answer for every such reference.
    // (How many candidates of each such name the run added, less those it removed; impl blocks are none.)
    const delta = new Map<string, number>();
    const count = (sigs: Map<string, SignedSymbol>, other: Map<string, unknown>, by: number): void => {
      for (const [sig, x] of sigs) {
        if (other.has(sig) || writtenType(x.name) !== x.name || x.kind === "impl") continue;
        delta.set(x.name, (delta.get(x.name) ?? 0) + by);
      }
    };
    count(newSigs, oldSigs, 1);
    count(oldSigs, newSigs, -1);
    const flipped = new Set<string>();
    for (const [n, d] of delta) {
      const now = resolver.symbolCount(n);
      if (now - d > 0 !== now > 0) flipped.add(n);
    }
    add(resolver.refsWrittenType(flipped, changed));
    // A file that came or went changes what the import specifiers of its importers denote
    // (an import that named no indexed file may guess; one that does, does not).
    if (addedPaths.length + removedPaths.length > 0) {
      const paths = [...addedPaths, ...removedPaths];
      add(resolver.refsThroughImportsOf(resolver.importersOf(paths).filter((id) => !changed.has(id)), moduleStems(paths)));
    }
    // A symbol that came or went changes what an importer's binding of its name denotes, also
    // under an alias (`import { a as b }`) or as a default export, by name or as a qualifier.
    if (names.length > 0) {
      const importers = resolver.importersOf([...touchedPaths]).filter((id) => !changed.has(id));
      add(resolver.boundRefs(importers, new Set(names)));
    }
    // Imports follow re-exports (a package's __init__.py, a TypeScript barrel): what a module
    // exports changes with its symbols and with its own imports, and reaches the importers of its
    // importers too. Every reference bound through an import of those, up to the depth resolution
    // follows (four modules).
    if (names.length > 0 || addedPaths.length + removedPaths.length > 0 || inputsChanged) {
      const seen = new Set(changed);
      let paths = [...touchedPaths, ...addedPaths, ...removedPaths];
      const pathOf = db.prepare("SELECT path FROM files WHERE id = ?").pluck();
      for (let depth = 0; depth < 4 && paths.length > 0; depth++) {
        const ids = resolver.importersOf(paths).filter((id) => !seen.has(id));
        for (const id of ids) seen.add(id);
        add(resolver.refsThroughImportsOf(ids, moduleStems(paths)));
        paths = ids.map((id) => pathOf.get(id) as string);
      }
    }
    resolved += resolver.resolveRows([...again.values()]);
    setMeta(db, "last_index_time", indexedAt);
  };

  const extractInline = async (): Promise<FileOutcome[]> => {
    const large = (t: FileTask): boolean => {
      try {
        return (sizeAndMtime(t.abs)?.size ?? 0) > INLINE_MAX_BYTES;
      } catch {
        return false; // processFile reports it unreadable
      }
    };
    if (!tasks.some(large)) return tasks.map((t) => processFile(t));
    const outs: FileOutcome[] = [];
    await runPool(tasks, (o) => outs.push(...o), options.threads);
    return outs;
  };
  if (inline && !cold) {
    // A few changed files: stored and re-resolved in one transaction, so their references are
    // written once, resolved, and a killed run leaves the index as it was.
    const outs = await extractInline();
    db.transaction(() => {
      apply(outs);
      debug?.(`extracted and stored ${tasks.length} files`);
      reresolve();
    })();
  } else {
    if (inline) apply(await extractInline());
    else await runPool(tasks, apply, options.threads);
    debug?.(`extracted and stored ${tasks.length} files`);
  }
  if (cold) {
    // Extraction left this heap full of the rows it received, already stored; V8 collects an
    // idle thread's heap late, and the resolve worker's heap would come on top of it (up to 90 MB
    // of garbage measured on the big tree).
    collectGarbage();
    debug?.("collected the extraction's garbage");
    // Index builds sort every row: in memory (temp_store = MEMORY) that sort grows with the
    // repository, in temporary files it stays within the page cache's size.
    db.pragma("temp_store = FILE");
    db.exec(SYMBOL_INDEXES.replace(SYMBOL_SEARCH_INDEX, ""));
    debug?.("built symbol indexes");
    // While the workers resolve, this thread mostly waits for their outcomes: in between it
    // builds the indexes that do not depend on them, those of the references' own columns and
    // the symbols' search index, and resolves the impact graph's files that need no TypeScript
    // compiler (it reads no outcome; see coldImpactSteps for why not the compiler's). refs_file
    // first: the impact graph's Java files read their references by file.
    const [refsFile, ...otherRefIndexes] = REF_INPUT_INDEXES;
    const impact = coldImpactSteps(db, root);
    const idle: (string | (() => boolean))[] = [refsFile as string, impact.step, ...otherRefIndexes, SYMBOL_SEARCH_INDEX];
    const idleStep = (): boolean => {
      const next = idle[0];
      if (typeof next === "function") {
        if (!next()) idle.shift();
      } else if (next !== undefined) {
        idle.shift();
        db.exec(next);
      }
      return idle.length > 0;
    };
    resolved = await resolveCold(db, options, root, debug, idleStep);
    debug?.(`${idle.length} idle step(s) left; impact graph's first part ${idle.includes(impact.step) ? "unfinished" : "done"}`);
    while (idleStep());
    // The last index and the statistics (below) on a worker's connection while this thread
    // resolves the TypeScript files' dependencies, one core each; their outcomes are written
    // after, when ANALYZE has seen no edge (as when updateImpact ran after it). On the 76 MB
    // mixed tree this part took 0.81-0.83 s instead of 0.90-1.00 s (3 interleaved runs each).
    const tailDone = options.threads === 1 ? Promise.resolve(false) : inWorker("./index-tail-worker.js", { dbPath: options.dbPath, indexedAt }, debug);
    impact.compute();
    debug?.("resolved the impact graph's remaining files");
    if (!(await tailDone)) finishColdReferences(db, indexedAt);
    db.pragma("temp_store = MEMORY");
    db.pragma(`cache_size = -${DB_CACHE_KB}`);
    debug?.("built reference indexes and analyzed");
    const deps = impact.finish();
    debug?.(`resolved ${deps} file dependencies for the impact graph`);
  } else {
    if (!inline) db.transaction(reresolve)();
    debug?.(`re-resolved ${resolved} references`);
  }
  // The impact graph (file -> file dependencies) after the files and their references are in
  // (a cold run's is done above).
  if (!cold) db.transaction(() => {
    const n = updateImpact(db, root, {
      cold,
      changedIds,
      addedPaths: changedPaths.filter((p) => !stored.has(p)),
      removedPaths: [...new Set(removed.map((f) => f.path))],
      before: impactBefore,
    });
    debug?.(`resolved ${n} file dependencies for the impact graph`);
  })();
  db.transaction(() => {
    setMeta(db, "root", root);
    setMeta(db, "built_by", packageVersion());
    // So that a query about a file that is not in the index can say why (query --file).
    setMeta(db, "skipped", JSON.stringify(skipped.slice(0, 10_000).map((s) => [s.path, s.reason, s.detail])));
    if (cold) recordGoPackages(db, root);
  })();
  const removedPaths = [...new Set(removed.map((f) => f.path))];
  return {
    mode: options.rebuild ? "rebuild" : cold ? "full" : "incremental",
    // Every path looked at: indexed + unchanged + skipped adds up to it.
    files_scanned: seen.size + walkSkipped,
    files_indexed: changedIds.length,
    files_unchanged: unchanged,
    files_removed: removedPaths.length,
    files_skipped: skipped.length,
    skipped,
    parse_recovered: parseRecovered,
    references_resolved: resolved,
    changed_paths: changedPaths,
    removed_paths: removedPaths,
    ...counts(db),
    duration_ms: Math.round(performance.now() - t0),
  };
}

/**
 * CPU time so far of this thread and of the whole process, where /proc tells it (Linux): on a
 * busy machine wall times of the same run differ by a quarter, CPU times much less.
 */
function cpuTimes(): string {
  const main = cpuTicks(`/proc/self/task/${process.pid}/stat`);
  const all = cpuTicks("/proc/self/stat");
  return main === undefined || all === undefined ? "" : `, cpu: main ${main * 10} ms, process ${all * 10} ms`;
}

/**
 * Runs a worker script (beside this module) that posts "done" when it succeeded; resolves true
 * then, false when it failed or could not start (the caller then does its work itself).
 */
function inWorker(script: string, workerData: unknown, debug?: (m: string) => void): Promise<boolean> {
  return new Promise((resolve) => {
    try {
      // require(): the bundled CLI runs as a script compiled from a code cache, where import() has no loader.
      const { Worker } = createRequire(import.meta.url)("node:worker_threads") as typeof WorkerThreads;
      let ok = false;
      const w = new Worker(new URL(script, import.meta.url), { workerData, resourceLimits: { maxOldGenerationSizeMb: 64 } });
      w.on("message", (m: unknown) => {
        ok = m === "done";
      });
      w.on("error", (e) => debug?.(`${script} failed: ${e.message}`));
      w.on("exit", () => resolve(ok));
    } catch (e) {
      debug?.(`${script} did not start: ${(e as Error).message}`);
      resolve(false);
    }
  });
}

/**
 * Resolve workers of a cold index: one, whatever the cores. Each holds its own cache of candidate
 * symbols and its own heap: two on the 76 MB mixed tree (2 cores) resolved in 3.0 s instead of
 * 3.3 s, the whole index within the runs' spread of one, for a peak of 437-456 MB instead of
 * 341-356 (halving each cache did not lower it), past the 400 MB a cold index keeps to whatever
 * the repository's size. MAGELLAN_RESOLVE_THREADS sets it (for measuring, and tests).
 */
function resolveWorkers(): number {
  return Math.max(1, Math.min(Number(process.env.MAGELLAN_RESOLVE_THREADS) || 1, 8));
}

/** Reference rowids per unit of a cold index's resolution (see resolve-pool.ts; MAGELLAN_RESOLVE_UNIT_REFS: tests). */
const UNIT_REFS = Number(process.env.MAGELLAN_RESOLVE_UNIT_REFS) || 20_000;

/**
 * A cold index's resolution: every reference is stored, unresolved; this resolves them by range
 * of rowids (a unit), on worker threads while this thread writes the outcomes, or here. Only
 * outcomes that are not 'unresolved' are written. Returns how many references were looked at.
 */
async function resolveCold(db: DB, options: IndexOptions, root: string, debug?: (m: string) => void, idle?: () => boolean): Promise<number> {
  const maxId = (db.prepare("SELECT max(id) FROM refs").pluck().get() as number | null) ?? 0;
  const units = Math.ceil(maxId / UNIT_REFS);
  const unit = (k: number): ResolveUnit => ({ unit: k, from: k * UNIT_REFS, to: (k + 1) * UNIT_REFS });
  const update = db.prepare("UPDATE refs SET target_symbol_id = ?, resolution = ?, candidates = ? WHERE id = ?");
  let resolved = 0;
  const write = (r: ResolvedUnit): void => {
    db.transaction(() => {
      for (let i = 0; i < r.ids.length; i++) update.run(r.targets[i] ?? null, r.hows[i], r.candidates[i] ?? null, r.ids[i]);
    })();
    resolved += r.count;
  };
  // A worker resolves while this thread writes; below this many references starting one costs
  // more than it saves. --threads 1 resolves here.
  const minRefs = Number(process.env.MAGELLAN_RESOLVE_WORKERS_MIN_REFS ?? 50_000);
  const threads = (options.threads ?? availableParallelism()) > 1 ? resolveWorkers() : 0;
  let done = 0;
  if (threads >= 1 && maxId >= minRefs) {
    const pool = await resolveInWorkers(options.dbPath, root, units, unit, threads, write, idle);
    done = pool.delivered;
    debug?.(`resolved ${resolved} references in ${units} unit(s) on ${threads} worker thread(s) (units each: ${pool.perWorker.join(", ")})${done < units ? "; a worker failed, the rest here" : ""}`);
  }
  if (done < units) {
    const resolver = new Resolver(db, root);
    for (let k = done; k < units; k++) {
      const u = unit(k);
      write(resolver.resolveUnit(u.from, u.to));
    }
  }
  debug?.(`resolved and stored ${resolved} references in ${units} unit(s)`);
  return resolved;
}

/**
 * What a file's rows must keep until its references are stored: the reference columns and the
 * symbol ids their callers point at. The rest (symbol rows, imports, dependencies) is in the
 * database already and was most of the rows' size.
 */
function heldForResolution(rows: FileRows, intern: (v: string) => string): FileRows {
  const { refs } = rows;
  for (let i = 0; i < refs.names.length; i++) {
    refs.names[i] = intern(refs.names[i] as string);
    refs.kinds[i] = intern(refs.kinds[i] as string) as (typeof refs.kinds)[number];
    const q = refs.qualifiers[i];
    if (q !== null && q !== undefined) refs.qualifiers[i] = intern(q);
    const t = refs.receiverTypes[i];
    if (t !== null && t !== undefined) refs.receiverTypes[i] = intern(t);
  }
  return {
    symbols: rows.symbols.map((s) => ({ symbol_id: s.symbol_id }) as FileRows["symbols"][number]),
    refs,
    imports: [],
    deps: [],
    has_errors: rows.has_errors,
    line_count: rows.line_count,
  };
}
