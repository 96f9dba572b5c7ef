/**
 * Build step after tsc: bundles each tool's CLI entry (dist/src/cli/<tool>.js) with our modules
 * it loads statically or for its quick paths (magellan's index and read commands, mdsel's index
 * and select) into one CommonJS file, dist/src/cli/<tool>.bundle.cjs, which the bin
 * (<tool>-bin.cjs; for mdsel, the launcher that may start it from a snapshot) runs with a V8
 * code cache. A CommonJS entry skips Node's ESM
 * loader (its set-up, and a resolve, link and evaluate step per module, and a facade per builtin).
 * npm packages stay external but for the plain JavaScript a tool's common runs need (see
 * INTERNAL_PACKAGES), and so do magellan's own dynamic imports (watch, export, the seed 04
 * commands, commander's runner): they load as the ES modules they are, only when those commands
 * run (see keepDynamic). `node dist/src/cli/<tool>.js` runs the same code unbundled.
 */
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { readFile } from "node:fs/promises";
import { dirname, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import { SNAPSHOT_TOOLS, launcherScript } from "../src/launch/snapshot.cjs";

const REPO = fileURLToPath(new URL("../../", import.meta.url));

/**
 * Each bundled module keeps its own import.meta.url (the file tsc emitted, beside the bundle in
 * dist/), so what it finds relative to itself (worker scripts, query files, packages) is found
 * exactly as when it runs unbundled.
 */
function ownModuleUrl(outDir: string, entry: string, separate: ReadonlySet<string>, keepDynamic: boolean): Plugin {
  return {
    name: "own-module-url",
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, async (args) => {
        let text = await readFile(args.path, "utf8");
        // A package loaded lazily through createRequire (so that runs which do not need it never
        // load it) and bundled on its own is loaded from that bundle, with its own code cache.
        const original = text;
        text = text.replace(/\bcreateRequire\(import\.meta\.url\)\((["'])([^"']+)\1\)/g, (m, q: string, spec: string) =>
          separate.has(spec) ? `__requireBundled(${q}${spec}${q})` : m,
        );
        const own = text.includes("import.meta.url");
        // The entry's own dynamic imports stay ES module loads at run time, through the loader
        // the bin hands the bundle (see src/launch/code-cache.cts).
        const lazy = keepDynamic && args.path === entry && /\bimport\((["'])\./.test(text);
        if (!own && !lazy && text === original) return undefined;
        if (own) text = text.replaceAll("import.meta.url", `__moduleUrl(${JSON.stringify(relative(outDir, args.path))})`);
        if (lazy) text = text.replace(/\bimport\((["'])(\.[^"']+)\1\)/g, (_m, q: string, spec: string) => `__load(${q}${spec}${q})`);
        return { contents: text, loader: "js", resolveDir: dirname(args.path) };
      });
    },
  };
}

/**
 * Packages taken into each bundle: plain JavaScript its common runs load. magellan: better-sqlite3's
 * library (its native addon is still loaded from node_modules). mdsel, llmastsearch: the edit
 * distance of suggestions. Every other package stays external:
 * native, large, or loaded only by some commands.
 */
const INTERNAL_PACKAGES: Record<string, ReadonlySet<string>> = {
  magellan: new Set(["better-sqlite3", "bindings", "file-uri-to-path"]),
  mdsel: new Set(["fastest-levenshtein"]),
  // llmtransform validates every request with zod: ~50 ms of compiling it afresh on each run.
  llmtransform: new Set(["zod"]),
  llmastsearch: new Set(["fastest-levenshtein"]),
  // splice: zod for its requests (as llmtransform), diff for every result's changed spans.
  splice: new Set(["zod", "diff"]),
};

/**
 * Packages a tool loads lazily (createRequire) that get a bundle of their own beside the tool's,
 * <name>.bundle.cjs, which the bin loads with its own code cache (code-cache.cts). mdsel:
 * markdown-it and the packages it requires, which every document with more than headings,
 * paragraphs and bullet lists needs; unbundled, its ~20 modules load and compile on each such
 * run, and inside mdsel's bundle its share of the code cache would be read by every run.
 */
const SEPARATE_PACKAGES: Record<string, ReadonlySet<string>> = {
  mdsel: new Set(["markdown-it"]),
};
const pkg = JSON.parse(readFileSync(REPO + "package.json", "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };

/** What every bundle is: one CommonJS file for Node 20, with a source map. */
const COMMON = { bundle: true, platform: "node", format: "cjs", target: "node20", sourcemap: true, logLevel: "warning" } as const;

const BUNDLES = [
  // keepDynamic: the entry's own dynamic imports stay ES module loads (magellan's are whole
  // commands, each with its own dependencies). Otherwise esbuild bundles them, still initialised
  // only when imported (mdsel's are the commander path: flags, help, usage errors).
  { tool: "magellan", entry: "dist/src/cli/magellan.js", out: "dist/src/cli/magellan.bundle.cjs", keepDynamic: true },
  { tool: "mdsel", entry: "dist/src/cli/mdsel.js", out: "dist/src/cli/mdsel.bundle.cjs", keepDynamic: false },
  // The other tools: one bundle each, run as mdsel's is.
  ...["llmsearch", "llmastsearch", "llmtransform", "llmfilewrite", "llmtools", "splice"].map((tool) => ({
    tool,
    entry: `dist/src/cli/${tool}.js`,
    out: `dist/src/cli/${tool}.bundle.cjs`,
    keepDynamic: false,
  })),
];

for (const { tool, entry, out, keepDynamic } of BUNDLES) {
  const internal = INTERNAL_PACKAGES[tool] ?? new Set<string>();
  const separate = SEPARATE_PACKAGES[tool] ?? new Set<string>();
  const external = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter((n) => !internal.has(n));
  await build({
    entryPoints: [REPO + entry],
    outfile: REPO + out,
    ...COMMON,
    external: [...external, ...external.map((n) => `${n}/*`)],
    banner: {
      js: [
        '"use strict";',
        'const __moduleUrl = (rel) => require("node:url").pathToFileURL(require("node:path").join(__dirname, rel)).href;',
        // Run by the bin, the bundle gets __esmImport; required as a plain module, import() works.
        'const __load = typeof __esmImport === "function" ? __esmImport : (s) => import(s);',
        'const __requireBundled = typeof __bundledRequire === "function" ? __bundledRequire : (s) => require(s);',
      ].join("\n"),
    },
    plugins: [ownModuleUrl(dirname(REPO + out), REPO + entry, separate, keepDynamic)],
  });
}

// The packages bundled on their own (SEPARATE_PACKAGES), from their CommonJS entry, beside the
// tool's bundle; their own dependencies go in with them.
const requireFromRepo = createRequire(REPO + "package.json");
for (const name of new Set(Object.values(SEPARATE_PACKAGES).flatMap((s) => [...s]))) {
  await build({
    entryPoints: [requireFromRepo.resolve(name)],
    outfile: `${REPO}dist/src/cli/${name}.bundle.cjs`,
    ...COMMON,
  });
}

// Each bin (dist/src/cli/<tool>-bin.cjs, as tsc emitted it) in place as one file with the
// daemon client it loads first (src/server/client.cts, protocol.cts): a run the daemon answers
// then reads and compiles one file of ours (two cost ~0.5 ms more CPU). The in-process path
// (code-cache.cjs, magellan's command list, mdsel's snapshot builder) stays in files of its own,
// required only when it runs. Run again on its own output, it finds nothing more to take in.
const BIN_EXTERNAL = /\/launch\/code-cache\.cjs$|\/launch\/snapshot\.cjs$|\/magellan-commands\.cjs$/;
for (const { tool } of BUNDLES) {
  const bin = `${REPO}dist/src/cli/${tool}-bin.cjs`;
  await build({
    entryPoints: [bin],
    outfile: bin,
    allowOverwrite: true,
    ...COMMON,
    plugins: [
      {
        name: "in-process-path-external",
        setup(b) {
          b.onResolve({ filter: BIN_EXTERNAL }, (args) => ({ path: args.path, external: true }));
        },
      },
    ],
  });
  chmodSync(bin, 0o755);
}

// What node's snapshot builder runs to make them (src/launch/snapshot-entry.ts): one script,
// as the builder gives its entry `require` but neither `exports` nor an ES module loader.
await build({
  entryPoints: [REPO + "dist/src/launch/snapshot-entry.js"],
  outfile: REPO + "dist/src/cli/snapshot-entry.cjs",
  ...COMMON,
  format: "iife",
});
// The launchers of the tools that start from a V8 startup snapshot (src/launch/snapshot.cts):
// package.json's bin for each.
for (const tool of Object.keys(SNAPSHOT_TOOLS)) {
  writeFileSync(`${REPO}dist/src/cli/${tool}`, launcherScript(tool), { mode: 0o755 });
  chmodSync(`${REPO}dist/src/cli/${tool}`, 0o755);
}
