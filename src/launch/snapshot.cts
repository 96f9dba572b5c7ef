/**
 * V8 startup snapshots for the commands that must start fastest (mdsel's `index` and `select`).
 * A code cache (code-cache.cts) spares a run compiling; a snapshot also spares it evaluating the
 * bundle and finding and reading the cache: node starts with the bundle already loaded, its
 * functions compiled and its parsers warmed up, and only runs the command.
 *
 * A bin becomes a small shell launcher (launcherScript) because the snapshot has to be named on
 * node's command line. The launcher uses a snapshot only when it was built by this very node
 * binary from these very bundles: its file name is a key of their sizes and mtimes, which both
 * the launcher (stat) and node (snapshotPath) compute. The first run without one goes through
 * the bin as before and builds it as it exits (buildSnapshotOnExit), checks that it starts, and
 * only then puts it in place; a snapshot that cannot be built leaves a `.failed` marker, and the
 * launcher keeps the plain path. It lives in the private cache directory of code-cache.cts.
 */
import type * as ChildProcess from "node:child_process";
import { chmodSync, existsSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { privateCacheDir } from "./code-cache.cjs";

export interface SnapshotTool {
  /** Packages bundled on their own that the snapshot loads too (<name>.bundle.cjs). */
  libraries: readonly string[];
  /** First arguments whose runs, without any flag, start from the snapshot. */
  commands: readonly string[];
}

export const SNAPSHOT_TOOLS: Readonly<Record<string, SnapshotTool>> = {
  mdsel: { libraries: ["markdown-it"], commands: ["index", "select"] },
};

/** The files a tool's snapshot is built from, in key order: node itself, then the bundles. */
function keyFiles(dir: string, tool: string, spec: SnapshotTool): string[] {
  return [process.execPath, join(dir, `${tool}.bundle.cjs`), ...spec.libraries.map((l) => join(dir, `${l}.bundle.cjs`))];
}

/**
 * Where the snapshot of `tool` for this node and this build is, or would be; undefined when
 * there is no private cache directory or a file is missing. The launcher names the same file.
 */
export function snapshotPath(dir: string, tool: string): string | undefined {
  const spec = SNAPSHOT_TOOLS[tool];
  if (!spec) return undefined;
  try {
    const cache = privateCacheDir();
    if (cache === undefined) return undefined;
    const key = keyFiles(dir, tool, spec)
      .map((f) => {
        const st = statSync(f);
        return `${st.size}.${Math.floor(st.mtimeMs / 1000)}`;
      })
      .join("-");
    return join(cache, `${tool}-${key}.blob`);
  } catch {
    return undefined;
  }
}

/**
 * When the launcher asked for a snapshot it did not find (LLMTOOLS_SNAPSHOT names it), builds it
 * as this process exits: the command's output is out by then. Once per build of the tool.
 */
export function buildSnapshotOnExit(dir: string, tool: string): void {
  const wanted = process.env.LLMTOOLS_SNAPSHOT;
  if (wanted === undefined) return;
  process.once("exit", () => {
    const blob = snapshotPath(dir, tool);
    // Built only where the launcher will look for it, and by no one else yet.
    if (blob === undefined || blob !== wanted || existsSync(blob) || existsSync(`${blob}.failed`)) return;
    try {
      buildSnapshot(dir, tool, blob);
    } catch {
      // A snapshot is an optimisation: without one, runs take the plain path.
    }
  });
}

function buildSnapshot(dir: string, tool: string, blob: string): void {
  // Loaded only here: most runs never build one.
  const { spawnSync } = createRequire(__filename)("node:child_process") as typeof ChildProcess;
  const tmp = `${blob}.${process.pid}.tmp`;
  const env: NodeJS.ProcessEnv = { ...process.env, LLMTOOLS_SNAPSHOT_DIR: dir, LLMTOOLS_SNAPSHOT_TOOL: tool };
  for (const k of ["LLMTOOLS_SNAPSHOT", "LLMTOOLS_BIN", "NODE_OPTIONS"]) delete env[k];
  const entry = join(dir, "snapshot-entry.cjs");
  try {
    const built = spawnSync(process.execPath, ["--snapshot-blob", tmp, "--build-snapshot", entry], { env, stdio: "ignore", timeout: 20_000 });
    // A snapshot is used only once a process started from it has answered.
    const check = built.status === 0 ? spawnSync(process.execPath, ["--snapshot-blob", tmp], { env: { ...env, LLMTOOLS_SNAPSHOT_CHECK: "1" }, encoding: "utf8", timeout: 20_000 }) : undefined;
    if (check?.status === 0 && check.stdout === `snapshot ok: ${tool}\n`) {
      chmodSync(tmp, 0o600);
      renameSync(tmp, blob);
      // Snapshots of earlier builds (or of another node) are of no further use, nor are those a
      // killed build left half-written (a build in progress is seconds old).
      const stem = `${tool}-`;
      for (const name of readdirSync(dirname(blob))) {
        if (!name.startsWith(stem) || name === basename(blob)) continue;
        const path = join(dirname(blob), name);
        const stale = name.endsWith(".tmp") && (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < Date.now() - 600_000;
        if (name.endsWith(".blob") || name.endsWith(".blob.failed") || stale) rmSync(path, { force: true });
      }
    } else if (built.signal === null && check?.signal == null) {
      // It cannot be built or does not start with this node: not tried again for this build. A
      // build stopped by the timeout (a loaded machine) is tried again by a later run.
      writeFileSync(`${blob}.failed`, `${built.status} ${check?.status ?? ""}\n`, { mode: 0o600 });
    }
  } finally {
    rmSync(tmp, { force: true });
  }
}

/**
 * The shell launcher of `tool` (written into dist/ by scripts/bundle.ts as the tool's bin): POSIX
 * sh, builtins and one small process (stat; and readlink when run through a symbolic link, as npm
 * links bins). It keeps what the node bins' first line does: NODE_EXTRA_CA_CERTS is dropped, as
 * it costs every node start ~80 ms here.
 */
export function launcherScript(tool: string): string {
  const spec = SNAPSHOT_TOOLS[tool];
  if (!spec) throw new Error(`no snapshot for ${tool}`);
  const bundles = [`${tool}.bundle.cjs`, ...spec.libraries.map((l) => `${l}.bundle.cjs`)].map((b) => `"$dir/${b}"`).join(" ");
  return `#!/bin/sh
# The \`${tool}\` command, written by scripts/bundle.ts. \`${tool} ${spec.commands.join("|")}\` without flags
# starts node from a V8 startup snapshot of the bundled CLI (src/launch/snapshot.cts) when one
# was built by this node binary from these bundles; any other run, or the first, runs
# ${tool}-bin.cjs, which builds the snapshot as it exits.
unset NODE_EXTRA_CA_CERTS
self=$0
if [ -L "$self" ]; then self=$(readlink -f -- "$self") || exit 1; fi
case $self in */*) dir=\${self%/*} ;; *) dir=. ;; esac
want=
case \${1-} in ${spec.commands.join("|")})
  want=1
  for a do case $a in -*) want= ;; esac; done ;;
esac
if [ -n "$want" ] && [ -z "\${NODE_OPTIONS-}" ] && [ -z "\${NODE_DISABLE_COMPILE_CACHE-}" ] && node=$(command -v node); then
  tmp=\${TMPDIR:-\${TMP:-\${TEMP:-/tmp}}}
  case $tmp in ?*/) tmp=\${tmp%/} ;; esac
  # The real uid, as process.getuid() gives it: from /proc by builtins where there is one.
  uid=
  if [ -r /proc/self/status ]; then
    while read -r k v rest; do if [ "$k" = Uid: ]; then uid=$v; break; fi; done < /proc/self/status
  fi
  [ -n "$uid" ] || uid=$(id -u)
  cache=$tmp/llmtools-v8-cache-$uid
  # The cache directory must be ours alone (as code-cache.cts checks): a snapshot is code we run.
  # Before the first run it does not exist yet; that run makes it and builds the snapshot in it.
  if [ -e "$cache" ]; then own=1; else own=; fi
  key= n=0
  for line in $(stat -L -c '%a.%u.%s.%Y' -- \${own:+"$cache"} "$node" ${bundles} 2>/dev/null); do
    if [ -n "$own" ] && [ $n = 0 ]; then
      case $line in [1-7]00.$uid.*) ;; *) break ;; esac
    else key=\${key:+$key-}\${line#*.*.}; fi
    n=$((n + 1))
  done
  # Every file stated (stat leaves out one it cannot read): node and the bundles keyed.
  if [ $n = $((\${own:-0} + ${spec.libraries.length + 2})) ]; then
    blob=$cache/${tool}-$key.blob
    export LLMTOOLS_BIN="$self"
    if [ -s "$blob" ]; then exec "$node" --snapshot-blob "$blob" "$@"; fi
    [ -e "$blob.failed" ] || export LLMTOOLS_SNAPSHOT="$blob"
  fi
fi
exec node "$dir/${tool}-bin.cjs" "$@"
`;
}
