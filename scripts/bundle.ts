/**
 * Build step after tsc: bundles the CLI entries of magellan and mdsel (dist/src/cli/<tool>.js)
 * with our modules they load statically or for their quick paths (magellan's index and read
 * commands, mdsel's index) into one CommonJS file each, dist/src/cli/<tool>.bundle.cjs, which the
 * bin (<tool>-bin.cjs) runs with a V8 code cache. A CommonJS entry skips Node's ESM loader (its
 * set-up, and a resolve, link and evaluate step per module, and a facade per builtin). npm
 * packages stay external but for better-sqlite3's JavaScript, and so do the modules the entry itself imports dynamically (watch, export, the
 * seed 04 commands, commander's runner, mdsel's select): they load as the ES modules they are,
 * only when those commands run. `node dist/src/cli/<tool>.js` runs the same code unbundled.
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";

const REPO = fileURLToPath(new URL("../../", import.meta.url));

/**
 * Each bundled module keeps its own import.meta.url (the file tsc emitted, beside the bundle in
 * dist/), so what it finds relative to itself (worker scripts, query files, packages) is found
 * exactly as when it runs unbundled.
 */
function ownModuleUrl(outDir: string, entry: string): Plugin {
  return {
    name: "own-module-url",
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, async (args) => {
        let text = await readFile(args.path, "utf8");
        const own = text.includes("import.meta.url");
        // The entry's own dynamic imports stay ES module loads at run time, through the loader
        // the bin hands the bundle (see src/contract/code-cache.cts).
        const lazy = args.path === entry && /\bimport\((["'])\./.test(text);
        if (!own && !lazy) return undefined;
        if (own) text = text.replaceAll("import.meta.url", `__moduleUrl(${JSON.stringify(relative(outDir, args.path))})`);
        if (lazy) text = text.replace(/\bimport\((["'])(\.[^"']+)\1\)/g, (_m, q: string, spec: string) => `__load(${q}${spec}${q})`);
        return { contents: text, loader: "js", resolveDir: dirname(args.path) };
      });
    },
  };
}

/**
 * Packages taken into the bundle: plain JavaScript that every query loads (better-sqlite3's
 * library; its native addon is still loaded from node_modules). Every other package stays
 * external: native, large, or loaded only by some commands.
 */
const INTERNAL_PACKAGES = new Set(["better-sqlite3", "bindings", "file-uri-to-path"]);
const pkg = JSON.parse(readFileSync(REPO + "package.json", "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
const external = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter((n) => !INTERNAL_PACKAGES.has(n));

const BUNDLES = [
  { entry: "dist/src/cli/magellan.js", out: "dist/src/cli/magellan.bundle.cjs" },
  { entry: "dist/src/cli/mdsel.js", out: "dist/src/cli/mdsel.bundle.cjs" },
];

for (const { entry, out } of BUNDLES) {
  await build({
    entryPoints: [REPO + entry],
    outfile: REPO + out,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    external: [...external, ...external.map((n) => `${n}/*`)],
    banner: {
      js: [
        '"use strict";',
        'const __moduleUrl = (rel) => require("node:url").pathToFileURL(require("node:path").join(__dirname, rel)).href;',
        // Run by the bin, the bundle gets __esmImport; required as a plain module, import() works.
        'const __load = typeof __esmImport === "function" ? __esmImport : (s) => import(s);',
      ].join("\n"),
    },
    plugins: [ownModuleUrl(dirname(REPO + out), REPO + entry)],
    sourcemap: true,
    logLevel: "warning",
  });
}
