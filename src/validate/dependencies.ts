/**
 * Errors that say only that a dependency the project declares is not installed on this machine
 * (package.json's `@sindresorhus/is` with no node_modules; pom.xml's JUnit and Truth with no
 * Maven class path): an environment gap, not a mistake of the change. got's new file importing
 * `is` as six files of source/ do, and javapoet's new test importing org.junit as seventeen
 * tests do, were rejected for them, with nothing the author could fix in the text. Such errors
 * become a MISSING_DEPENDENCY warning and leave the change unchecked (the uses of what the
 * package would provide were not checked), as Go and Rust already report a module they cannot
 * load.
 */
import { existsSync, readFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import { dirname, join } from "node:path";
import { javaSources, sourceRoot } from "./checkers/java.js";
import { findUp } from "./process.js";
import type { ValidationDiagnostic } from "./types.js";

type Raw = Omit<ValidationDiagnostic, "pre_existing">;

export interface DependencyGap {
  /** The package as the project declares it (`@sindresorhus/is`) or as the code names it (`org.junit`). */
  name: string;
  /** Why it counts as the project's (`declared in package.json`). */
  declared: string;
  /** What installs it. */
  remedy: string;
}

function rel(root: string, abs: string): string {
  return abs.startsWith(`${root}/`) ? abs.slice(root.length + 1) : abs;
}

/** The npm package a bare import specifier names (`@scope/name/sub` -> `@scope/name`); undefined for a relative or absolute one. */
function npmPackage(spec: string): string | undefined {
  if (spec.startsWith(".") || spec.startsWith("/") || spec.startsWith("#")) return undefined;
  // (Node's built-ins are typed by @types/node.)
  if (spec.startsWith("node:") || isBuiltin(spec)) return "@types/node";
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

function declaredNpm(root: string, abs: string, name: string): string | undefined {
  let dir = dirname(abs);
  for (;;) {
    const found = findUp(dir, root, ["package.json"]);
    if (!found) return undefined;
    try {
      const pkg = JSON.parse(readFileSync(found.file, "utf8")) as Record<string, unknown>;
      for (const k of ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"]) {
        const deps = pkg[k];
        if (deps && typeof deps === "object" && Object.hasOwn(deps, name)) return found.file;
      }
    } catch {
      // unreadable or not JSON: look further up
    }
    if (found.dir === root) return undefined;
    dir = dirname(found.dir);
  }
}

/** Whether Node's resolution from the file's directory would find the package's directory. */
function npmInstalled(abs: string, name: string): boolean {
  for (let dir = dirname(abs); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "node_modules", name))) return true;
    if (dirname(dir) === dir) return false;
  }
}

const TS_NOT_FOUND = /^Cannot find module '([^']+)' or its corresponding type declarations\.$/;

function typeScriptGap(root: string, abs: string, d: Raw, cache: Map<string, DependencyGap | null>): DependencyGap | undefined {
  if (d.code !== "TS2307") return undefined;
  const spec = TS_NOT_FOUND.exec(d.message)?.[1];
  const name = spec === undefined ? undefined : npmPackage(spec);
  if (name === undefined) return undefined;
  const key = `${dirname(abs)}\u0000${name}`;
  if (!cache.has(key)) {
    const declaredIn = npmInstalled(abs, name) ? undefined : declaredNpm(root, abs, name);
    cache.set(key, declaredIn === undefined ? null : { name, declared: `declared in ${rel(root, declaredIn)}`, remedy: "npm install" });
  }
  return cache.get(key) ?? undefined;
}

const BUILD_FILES = ["pom.xml", "build.gradle", "build.gradle.kts"];

/**
 * The Java packages the file imports that are a dependency the build declares and this machine
 * lacks: javac says the package does not exist, no source root of the file holds it, the build
 * file declares dependencies, and another source of the project imports it too (the build
 * gets it from there; a package only this file names is more likely a typo).
 */
function missingJavaPackages(root: string, abs: string, text: string, errors: Raw[]): Map<string, DependencyGap> {
  const out = new Map<string, DependencyGap>();
  const named = [...new Set(errors.map((d) => /^package ([\w.]+) does not exist$/.exec(d.message)?.[1]).filter((p): p is string => p !== undefined))];
  if (named.length === 0) return out;
  const build = findUp(dirname(abs), root, BUILD_FILES);
  if (!build || !/dependenc/i.test(readFileSync(build.file, "utf8"))) return out;
  const src = sourceRoot(abs, text);
  const set = /^(.*)\/src\/([^/]+)\/java$/.exec(src);
  const roots = [src, ...(set && set[2] !== "main" ? [join(set[1] as string, "src", "main", "java")] : [])].filter((r) => existsSync(r));
  const candidates = named.filter((p) => !roots.some((r) => existsSync(join(r, ...p.split(".")))));
  if (candidates.length === 0) return out;
  const left = new Set(candidates);
  for (const f of roots.flatMap((r) => javaSources(r, 5000))) {
    if (f === abs || left.size === 0) continue;
    let other: string;
    try {
      other = readFileSync(f, "utf8");
    } catch {
      continue;
    }
    for (const p of [...left]) {
      if (new RegExp(`^\\s*import\\s+(static\\s+)?${p.replace(/\./g, "\\.")}\\.`, "m").test(other)) {
        left.delete(p);
        out.set(p, { name: p, declared: `imported by the project's other sources too, with its dependencies from ${rel(root, build.file)}`, remedy: build.file.endsWith("pom.xml") ? "mvn dependency:resolve" : "gradle dependencies" });
      }
    }
  }
  return out;
}

/** The names a Java text imports from each package (`import p.C;` and `import static p.C.m;`: C and m). */
function javaImports(text: string): { pkg: string; line: number; names: string[] }[] {
  const out: { pkg: string; line: number; names: string[] }[] = [];
  text.split("\n").forEach((l, i) => {
    const m = /^\s*import\s+(static\s+)?([\w.]+)\s*;/.exec(l);
    if (!m) return;
    const parts = (m[2] as string).split(".");
    // A static import names a member of a class (`p.C.m`): its package ends before the class.
    const cls = m[1] ? parts.length - 2 : parts.length - 1;
    out.push({ pkg: parts.slice(0, cls).join("."), line: i + 1, names: parts.slice(cls) });
  });
  return out;
}

function javaGaps(root: string, abs: string, text: string, errors: Raw[]): Map<Raw, DependencyGap> {
  const out = new Map<Raw, DependencyGap>();
  const missing = missingJavaPackages(root, abs, text, errors);
  if (missing.size === 0) return out;
  const imports = javaImports(text).filter((i) => missing.has(i.pkg));
  const byName = new Map(imports.flatMap((i) => i.names.map((n) => [n, missing.get(i.pkg) as DependencyGap] as const)));
  for (const d of errors) {
    const pkg = /^package ([\w.]+) does not exist$/.exec(d.message)?.[1];
    if (pkg !== undefined && missing.has(pkg)) out.set(d, missing.get(pkg) as DependencyGap);
    else if (d.message === "static import only from classes and interfaces") {
      const i = imports.find((x) => x.line === d.start_line);
      if (i) out.set(d, missing.get(i.pkg) as DependencyGap);
    } else {
      // What the missing package would have declared: `@Test`, `assertThat(…)`.
      const sym = /^cannot find symbol\nsymbol:\s+(?:class|method|variable|static)\s+([\w$]+)/.exec(d.message)?.[1];
      const gap = sym === undefined ? undefined : byName.get(sym);
      if (gap) out.set(d, gap);
    }
  }
  return out;
}

const PY_NOT_FOUND = /^Import "([\w.]+)" could not be resolved/;
/** Import names whose distribution is named otherwise (`import yaml` is PyYAML's). */
const PY_DISTRIBUTIONS: Record<string, string[]> = {
  yaml: ["pyyaml"],
  PIL: ["pillow"],
  bs4: ["beautifulsoup4"],
  sklearn: ["scikit-learn"],
  cv2: ["opencv-python", "opencv-python-headless"],
  dateutil: ["python-dateutil"],
  jwt: ["pyjwt"],
  attr: ["attrs"],
  dotenv: ["python-dotenv"],
  magic: ["python-magic"],
  serial: ["pyserial"],
  Crypto: ["pycryptodome"],
  OpenSSL: ["pyopenssl"],
  google: ["protobuf"],
  pkg_resources: ["setuptools"],
};
const PY_MANIFESTS = ["pyproject.toml", "setup.cfg", "setup.py", "requirements.txt", "requirements-dev.txt", "requirements/base.txt", "requirements/dev.txt"];

/** Whether `text` (a manifest) names the distribution as a requirement: quoted (`"click>=8"`) or at a line's start (`click==8.1`, poetry's `click = "^8"`). */
function requires(text: string, dist: string): boolean {
  // (Distribution names compare with `-`, `_` and `.` alike, and without case: PEP 503.)
  const name = dist.split(/[-_.]/).map((p) => p.replace(/[^\w]/g, "")).join("[-_.]");
  return new RegExp(`(?:["']|^[ \\t]*)${name}[ \\t]*(?:\\[[^\\]\n]*\\][ \\t]*)?(?:[<>=!~;@,"']|$)`, "im").test(text);
}

/**
 * Python: pyright cannot resolve an import of a distribution the project requires (pyproject.toml,
 * setup.cfg, setup.py or a requirements file from the file's directory up to the root) and this
 * environment has not installed: flask's new module importing werkzeug without a virtualenv.
 */
function pythonGap(root: string, abs: string, d: Raw, cache: Map<string, DependencyGap | null>): DependencyGap | undefined {
  if (d.code !== "reportMissingImports") return undefined;
  const top = PY_NOT_FOUND.exec(d.message)?.[1]?.split(".")[0];
  if (top === undefined || top === "") return undefined;
  const key = `py\u0000${dirname(abs)}\u0000${top}`;
  if (!cache.has(key)) {
    const dists = [top, ...(PY_DISTRIBUTIONS[top] ?? [])];
    let found: DependencyGap | null = null;
    for (let dir = dirname(abs); found === null; dir = dirname(dir)) {
      for (const m of PY_MANIFESTS) {
        const file = join(dir, m);
        if (!existsSync(file)) continue;
        let text: string;
        try {
          text = readFileSync(file, "utf8");
        } catch {
          continue;
        }
        const dist = dists.find((n) => requires(text, n));
        if (dist !== undefined) {
          found = { name: dist, declared: `required in ${rel(root, file)}`, remedy: "pip install -e . or pip install -r requirements.txt, in the environment pyright uses" };
          break;
        }
      }
      if (dir === root || !dir.startsWith(root) || dirname(dir) === dir) break;
    }
    cache.set(key, found);
  }
  return cache.get(key) ?? undefined;
}

/**
 * The errors among a changed file's introduced ones that are only a declared dependency missing
 * here, each with what is missing. Every other error stays the file's.
 */
export function dependencyGaps(root: string, path: string, after: Uint8Array, errors: Raw[], cache: Map<string, DependencyGap | null> = new Map()): Map<Raw, DependencyGap> {
  const abs = join(root, path);
  const own = errors.filter((d) => d.level === "error" && d.file === path);
  if (own.length === 0) return new Map();
  if (own.some((d) => d.source === "javac")) return javaGaps(root, abs, new TextDecoder().decode(after), own.filter((d) => d.source === "javac"));
  const out = new Map<Raw, DependencyGap>();
  for (const d of own) {
    const gap = d.source === "typescript" ? typeScriptGap(root, abs, d, cache) : d.code === "reportMissingImports" ? pythonGap(root, abs, d, cache) : undefined;
    if (gap) out.set(d, gap);
  }
  return out;
}
