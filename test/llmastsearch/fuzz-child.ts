/**
 * The fuzz loop of query-fuzz.test.ts, run in a child process so that a native crash is seen
 * as the child's death (signal, exit code) rather than as the test runner's. It only runs when
 * the test starts it (node --test also loads every .js under test/).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ToolError } from "../../src/contract/errors.js";
import { LANGUAGES } from "../../src/lang/registry.js";
import { compileQuery } from "../../src/tools/llmastsearch/query.js";
import { REPO_ROOT } from "../support/run.js";

/** Deterministic PRNG (mulberry32), so a failing case can be replayed from its seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The top-level patterns of a .scm file: balanced S-expressions, with strings and comments skipped. */
export function splitPatterns(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === ";") {
      while (i < text.length && text[i] !== "\n") i++;
      continue;
    }
    if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      continue;
    }
    if (c === "(" || c === "[") {
      if (depth === 0) start = i;
      depth++;
    } else if (c === ")" || c === "]") {
      depth--;
      if (depth === 0 && start >= 0) {
        // Trailing quantifiers and captures belong to the pattern.
        const m = /^(?:[*+?])?(?:\s*@[\w.\-]+)*/.exec(text.slice(i + 1));
        out.push(text.slice(start, i + 1 + (m?.[0].length ?? 0)));
        start = -1;
      }
    }
  }
  return out;
}

const ALPHABET = ['"', "\\", "(", ")", "[", "]", "@", "#", "?", "!", ".", "_", "*", "+", ":", ";", "\n", " ", "-", "a", "x", "é", "\0", "'", "`"];
const TOKENS = [
  '"', '"abc', '"a\\', "\\", "(", ")", "[", "]", "@x", "@", "#eq?", "#match?", "#any-of?", "#set!", "#is?", "#not-eq?", "!name",
  "name:", ".", "_", "(_)", "*", "+", "?", ";", "\n", "(identifier)", "(#eq? @x \"a\")", "(#match? @x \"[\")", "ERROR", "(ERROR)",
  "(MISSING)", "(MISSING identifier)", '"\\u{1F600}"', '"\\', "é", "\0", "@x.y", "(#eq? @undefined 1)", "((identifier) @x (#eq? @x))",
  "/", "*+", "?+", "(M", "MISSING", "((#set! a b))", "name: (#set! a)", "(_)?", "(_)*", "[(_)? (_)]", "((", "))",
];

function mutate(base: string, r: () => number): string {
  let s = base;
  const n = 1 + Math.floor(r() * 4);
  for (let k = 0; k < n; k++) {
    const at = Math.floor(r() * (s.length + 1));
    switch (Math.floor(r() * 5)) {
      case 0: // delete a run
        s = s.slice(0, at) + s.slice(at + 1 + Math.floor(r() * 6));
        break;
      case 1: // insert a character
        s = s.slice(0, at) + (ALPHABET[Math.floor(r() * ALPHABET.length)] as string) + s.slice(at);
        break;
      case 2: // insert a token
        s = s.slice(0, at) + (TOKENS[Math.floor(r() * TOKENS.length)] as string) + s.slice(at);
        break;
      case 3: // truncate
        s = s.slice(0, at);
        break;
      default: // duplicate a slice
        s = s.slice(0, at) + s.slice(Math.floor(r() * s.length), at) + s.slice(at);
    }
  }
  return s;
}

function random(r: () => number): string {
  const n = Math.floor(r() * 12);
  let s = "";
  for (let i = 0; i < n; i++) s += r() < 0.5 ? (ALPHABET[Math.floor(r() * ALPHABET.length)] as string) : (TOKENS[Math.floor(r() * TOKENS.length)] as string);
  return s;
}

function main(): void {
  const cases = Number(process.env.LLMAST_FUZZ_CASES ?? "10000");
  const seed = Number(process.env.LLMAST_FUZZ_SEED ?? "1");
  const r = rng(seed);
  const qdir = join(REPO_ROOT, "src", "lang", "queries");
  const corpus: { lang: string; pattern: string }[] = [];
  for (const dir of readdirSync(qdir)) {
    for (const f of readdirSync(join(qdir, dir))) {
      if (!f.endsWith(".scm")) continue;
      for (const p of splitPatterns(readFileSync(join(qdir, dir, f), "utf8"))) corpus.push({ lang: dir, pattern: p });
    }
  }
  const ids = LANGUAGES.map((l) => l.id);
  const stats = { cases: 0, compiled: 0, refused: 0, corpus: corpus.length };
  for (let i = 0; i < cases; i++) {
    let lang: string;
    let text: string;
    if (r() < 0.75 && corpus.length > 0) {
      const c = corpus[Math.floor(r() * corpus.length)] as { lang: string; pattern: string };
      lang = ids.includes(c.lang as never) ? c.lang : (ids[0] as string);
      text = mutate(c.pattern, r);
    } else {
      lang = ids[Math.floor(r() * ids.length)] as string;
      text = random(r);
    }
    // Written before the native call: if it kills the process, the parent reads the culprit here.
    process.stdout.write(`${JSON.stringify({ case: i, lang, text })}\n`);
    try {
      compileQuery(lang as never, { text, origin: "<query>" });
      stats.compiled++;
    } catch (e) {
      if (!(e instanceof ToolError)) {
        process.stdout.write(`${JSON.stringify({ bug: (e as Error).stack ?? String(e), lang, text })}\n`);
        process.exit(3);
      }
      stats.refused++;
    }
    stats.cases++;
  }
  process.stdout.write(`${JSON.stringify({ done: stats })}\n`);
}

if (process.env.LLMAST_FUZZ_CHILD === "1") main();
