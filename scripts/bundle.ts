/**
 * Build step after tsc: bundles magellan's CLI entry (dist/src/cli/magellan.js) with our modules
 * it loads statically or for its quick commands (index and the read commands) into one CommonJS
 * file, dist/src/cli/magellan.cjs, which package.json's `bin` names. A CommonJS entry skips
 * Node's ESM loader (its set-up, and a resolve, link and evaluate step per module, and a facade
 * per builtin): `magellan find` starts about 40 ms sooner than from the ES modules tsc emits.
 * npm packages stay external but for better-sqlite3's JavaScript, and so do the modules the entry
 * itself imports dynamically (watch,
 * export, the seed 04 commands, commander's runner): they load as the ES modules they are, only
 * when those commands run. `node dist/src/cli/magellan.js` runs the same code unbundled.
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";

const REPO = fileURLToPath(new URL("../../", import.meta.url));

function lazyImportsStayExternal(entry: string): Plugin {
  return {
    name: "lazy-imports-stay-external",
    setup(b) {
      b.onResolve({ filter: /^\./ }, (args) => (args.kind === "dynamic-import" && args.importer === entry ? { path: args.path, external: true } : undefined));
    },
  };
}

/**
 * Each bundled module keeps its own import.meta.url (the file tsc emitted, beside the bundle in
 * dist/), so what it finds relative to itself (worker scripts, query files, packages) is found
 * exactly as when it runs unbundled.
 */
function ownModuleUrl(outDir: string): Plugin {
  return {
    name: "own-module-url",
    setup(b) {
      b.onLoad({ filter: /\.js$/ }, async (args) => {
        const text = await readFile(args.path, "utf8");
        if (!text.includes("import.meta.url")) return undefined;
        const rel = JSON.stringify(relative(outDir, args.path));
        return { contents: text.replaceAll("import.meta.url", `__moduleUrl(${rel})`), loader: "js", resolveDir: dirname(args.path) };
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

const BUNDLES = [{ entry: "dist/src/cli/magellan.js", out: "dist/src/cli/magellan.cjs" }];

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
      js: '"use strict";\nconst __moduleUrl = (rel) => require("node:url").pathToFileURL(require("node:path").join(__dirname, rel)).href;',
    },
    plugins: [lazyImportsStayExternal(REPO + entry), ownModuleUrl(dirname(REPO + out))],
    sourcemap: true,
    logLevel: "warning",
  });
}
