/**
 * What `node --build-snapshot` runs to make a tool's startup snapshot (see snapshot.cts): loads
 * the tool's bundle and the packages bundled beside it, warms them up with the bundle's
 * `primeCodeCache`, and names the function each process started from the snapshot runs. Node's
 * snapshot builder loads built-in modules only, so this file requires nothing else and reads the
 * bundles as text; LLMTOOLS_SNAPSHOT_DIR and LLMTOOLS_SNAPSHOT_TOOL say which. It runs only as
 * scripts/bundle.ts builds it, dist/src/cli/snapshot-entry.cjs: one script (the builder gives it
 * `require` but no `exports`), where `require` is the builder's.
 */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { startupSnapshot } from "node:v8";

const dir = process.env.LLMTOOLS_SNAPSHOT_DIR ?? "";
const tool = process.env.LLMTOOLS_SNAPSHOT_TOOL ?? "";
if (!startupSnapshot.isBuildingSnapshot() || dir === "" || !/^[a-z][a-z-]*$/.test(tool)) {
  throw new Error("snapshot-entry: run by node --build-snapshot with LLMTOOLS_SNAPSHOT_DIR and LLMTOOLS_SNAPSHOT_TOOL");
}

const builtins = new Set(builtinModules);
/**
 * A bundle's require: built-in modules as usual; a package (commander, for the paths that load
 * one) from node_modules as seen from the bundle, resolved when the run asks for it.
 */
function requireFor(file: string): (id: string) => unknown {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the builder's require is the one loader it has
  return (id) => (id.startsWith("node:") || builtins.has(id) ? require(id) : createRequire(file)(id));
}

/** Evaluates a CommonJS file with the wrapper Node's loader gives it, plus `extras`. */
function load(file: string, extras: Record<string, unknown> = {}): unknown {
  const source = readFileSync(file, "utf8");
  const body = source.startsWith("#!") ? `//${source.slice(2)}` : source;
  const names = ["exports", "require", "module", "__filename", "__dirname", ...Object.keys(extras)];
  // The Function constructor rather than node:vm, which the snapshot builder does not vouch for;
  // sourceURL keeps the file's name in stack traces.
  const wrapper = new Function(...names, `${body}\n//# sourceURL=${file}`) as (...args: unknown[]) => void;
  const mod = { exports: {} as unknown };
  wrapper.call(mod.exports, mod.exports, requireFor(file), mod, file, dirname(file), ...Object.values(extras));
  return mod.exports;
}

const libraries = new Map<string, unknown>();
const bundle = join(dir, `${tool}.bundle.cjs`);
(globalThis as { __llmtoolsSnapshot?: boolean }).__llmtoolsSnapshot = true;
const main = load(bundle, {
  __esmImport: (specifier: string) => Promise.reject(new Error(`${tool}: ${specifier} cannot be imported from a startup snapshot`)),
  __bundledRequire: (name: string) => {
    if (!libraries.has(name)) {
      const lib = join(dir, `${name}.bundle.cjs`);
      libraries.set(name, /^[a-z][a-z0-9.-]*$/.test(name) && existsSync(lib) ? load(lib) : requireFor(bundle)(name));
    }
    return libraries.get(name);
  },
}) as { start?: () => void; primeCodeCache?: () => void };
if (typeof main.start !== "function") throw new Error(`snapshot-entry: ${bundle} exports no start()`);
main.primeCodeCache?.();

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

startupSnapshot.setDeserializeMainFunction(() => {
  if (process.env.LLMTOOLS_SNAPSHOT_CHECK === "1") {
    process.stdout.write(`snapshot ok: ${tool}\n`);
    return;
  }
  // Started as `node --snapshot-blob B args...`: argv[1] is the first argument. The command sees
  // the argv a script gets, with the launcher as the script.
  const given = process.env.LLMTOOLS_BIN;
  delete process.env.LLMTOOLS_BIN;
  // As the bin's own path would be (Node resolves a script's symbolic links): the launcher may be
  // reached through a linked directory.
  const bin = given === undefined ? undefined : real(resolve(given));
  process.argv.splice(1, 0, bin ?? join(dir, tool));
  if (bin !== undefined && dirname(bin) !== dir) {
    // The package moved since the snapshot was built (same files, same mtimes): its paths are
    // stale, so this run loads the bundle from where it is now, as the bin would.
    (globalThis as { __llmtoolsSnapshot?: boolean }).__llmtoolsSnapshot = false;
    createRequire(bin)(join(dirname(bin), `${tool}-bin.cjs`));
    return;
  }
  // The workspace's warm daemon answers when one runs, as it does for every bin (src/server/client.cts).
  const client = join(dir, "..", "server", "client.cjs");
  if (existsSync(client)) {
    (createRequire(client)(client) as { runViaDaemon: (tool: string, local: () => void) => void }).runViaDaemon(tool, main.start as () => void);
    return;
  }
  (main.start as () => void)();
});
