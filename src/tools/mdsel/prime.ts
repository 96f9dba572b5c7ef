/**
 * What a fresh V8 code cache should hold. A bin writes its cache once per build and command, at
 * the exit of the first run (src/launch/code-cache.cts), with the functions that run compiled;
 * later runs compile only what the cache lacks. Were that first run a small changelog, or a
 * missing file, every later run on a document with code, tables or quotes would compile
 * markdown-it and mdsel's block rules itself. So before the cache is written, both parsers and
 * the index and selector paths run once over small documents that hold every kind of block.
 */
import { buildDocumentSync } from "./document.js";
import { indexDocument } from "./index-command.js";
import { resolveSelector } from "./resolve.js";
import { parseSelector } from "./selector.js";

/** Every block markdown-it makes and the inline markup mdsel flattens (not ASCII: the UTF-8 path too). */
const RICH = [
  "---",
  "title: front matter",
  "---",
  "# Title with *emphasis*, `code` and [a link](https://example.com \"t\")",
  "",
  "Setext heading",
  "--------------",
  "",
  "A paragraph with **strong**, ~~struck~~, ![an image](i.png), <span>html</span>, &amp; an entity,",
  "a hard break  ",
  "and café au lait[^1].",
  "",
  "## Lists",
  "",
  "- [ ] a task",
  "- [x] done",
  "  - nested",
  "",
  "1. one",
  "2. two",
  "",
  "> a quote",
  "> > nested",
  "",
  "```ts",
  "const fenced = true;",
  "```",
  "",
  "    indented code",
  "",
  "| a | b |",
  "|---|:-:|",
  "| 1 | 2 |",
  "",
  "<div>",
  "html block",
  "</div>",
  "",
  "***",
  "",
  "[ref]: https://example.com",
  "",
].join("\n");

/** The shape the simple block scanner takes on: a generated changelog. */
const SIMPLE = [
  "# Change Log",
  "",
  "<!-- Start content -->",
  "",
  "## [1.0.0](https://example.com/v1.0.0)",
  "",
  "### Patches",
  "",
  "- `@scope/pkg`",
  "  - fix: a thing ([PR #1](https://example.com/1) by a@b.c)",
  "",
].join("\n");

const SELECTORS = ["prime::heading:h2[0]/block:code[0]", "prime::section[1]?full=true", "prime::block:table[0]", "prime::root/page[0]", "prime::heading:h2[9]"];

export function primeCodeCache(): void {
  for (const [name, text] of [
    ["prime.md", RICH],
    ["simple.md", SIMPLE],
  ] as const) {
    const doc = buildDocumentSync(Buffer.from(text, "utf8"), "prime", name);
    indexDocument(doc);
    for (const s of SELECTORS) resolveSelector(doc, parseSelector(s));
  }
}
