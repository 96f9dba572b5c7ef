/**
 * The Markdown parser: mdast-util-from-markdown over micromark, CommonMark plus the GFM
 * constructs the issue asks for (tables, task lists, strikethrough). GFM autolink literals,
 * footnotes and the tag filter are left out: they add nothing to the block structure mdsel
 * addresses, and autolink literals alone roughly double micromark's time on link-heavy files.
 * Imported lazily so `--help` and file errors never pay for loading the parser.
 */
import type { Nodes, Root } from "mdast";
import type { fromMarkdown as FromMarkdownFn } from "mdast-util-from-markdown";

type FromMarkdown = typeof FromMarkdownFn;
interface Parser {
  fromMarkdown: FromMarkdown;
  options: Parameters<FromMarkdown>[1];
}

let parser: Promise<Parser> | undefined;

function loadParser(): Promise<Parser> {
  parser ??= (async () => {
    const [fm, table, strike, task, mTable, mStrike, mTask] = await Promise.all([
      import("mdast-util-from-markdown"),
      import("micromark-extension-gfm-table"),
      import("micromark-extension-gfm-strikethrough"),
      import("micromark-extension-gfm-task-list-item"),
      import("mdast-util-gfm-table"),
      import("mdast-util-gfm-strikethrough"),
      import("mdast-util-gfm-task-list-item"),
    ]);
    return {
      fromMarkdown: fm.fromMarkdown,
      options: {
        extensions: [table.gfmTable(), strike.gfmStrikethrough({ singleTilde: true }), task.gfmTaskListItem()],
        mdastExtensions: [mTable.gfmTableFromMarkdown(), mStrike.gfmStrikethroughFromMarkdown(), mTask.gfmTaskListItemFromMarkdown()],
      },
    };
  })();
  return parser;
}

/** Parses Markdown (no BOM) into mdast with positions; offsets are UTF-16 indices into `text`. */
export async function parseMarkdown(text: string): Promise<Root> {
  const p = await loadParser();
  return p.fromMarkdown(text, p.options);
}

/** The text a reader sees: literal values and image alt text, markup dropped. */
export function plainText(node: Nodes): string {
  if ("value" in node && typeof node.value === "string") return node.value;
  if (node.type === "image" || node.type === "imageReference") return node.alt ?? "";
  if ("children" in node) {
    let out = "";
    for (const c of node.children as Nodes[]) out += plainText(c);
    return out;
  }
  return "";
}

/** Plain text of a node, whitespace collapsed, at most `max` characters. */
export function preview(node: Nodes, max = 80): string {
  return collapse(plainTextUpTo(node, max * 2)).slice(0, max);
}

export function collapse(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/** plainText that stops early: a 1 MB list need not be flattened for an 80-character preview. */
export function plainTextUpTo(node: Nodes, limit: number): string {
  let out = "";
  const walk = (n: Nodes): void => {
    if (out.length >= limit) return;
    if ("value" in n && typeof n.value === "string") {
      out += n.value;
    } else if (n.type === "image" || n.type === "imageReference") {
      out += n.alt ?? "";
    } else if ("children" in n) {
      const block = n.type !== "paragraph" && n.type !== "heading" && n.type !== "tableCell" && !isPhrasing(n.type);
      for (const c of n.children as Nodes[]) {
        walk(c);
        if (block) out += " ";
        if (out.length >= limit) return;
      }
    }
  };
  walk(node);
  return out;
}

function isPhrasing(t: string): boolean {
  return t === "emphasis" || t === "strong" || t === "delete" || t === "link" || t === "linkReference";
}
