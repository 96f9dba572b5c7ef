/** `mdsel index`: seed 05's IndexResponse for each file. */
import type { MdselDocumentIndex, MdselHeadingDescriptor, MdselIndexResponse } from "../../contract/tools/mdsel.js";
import { countWords, type MdDocument } from "./document.js";
import type { ErrorEntry } from "./errors.js";
import { DocumentCache, discoverMarkdown, expandDirectories, isErrorEntry, noDocumentsError, sourcesFor, type Workspace } from "./load.js";
import { childrenCount, contentRange, DEFAULTS, headingChildrenCounts, nodePreview, type NodeRef } from "./nodes.js";

export type Outcome = "ok" | "partial" | "failure" | "usage";

export interface CommandResult<D, P> {
  outcome: Outcome;
  data: D | null;
  partial_results?: P[];
  unresolved_selectors?: string[];
  warnings?: string[];
  errors?: ErrorEntry[];
}

export interface IndexRequest {
  files: string[];
}

export async function indexCommand(ws: Workspace, req: IndexRequest): Promise<CommandResult<MdselIndexResponse, MdselDocumentIndex>> {
  const warnings: string[] = [];
  const files = req.files.length > 0 ? await expandDirectories(ws, req.files) : discoverMarkdown(ws);
  if (files.length === 0) return { outcome: "failure", data: null, errors: [noDocumentsError(ws)] };
  const cache = new DocumentCache(ws);
  const documents: MdselDocumentIndex[] = [];
  const errors: ErrorEntry[] = [];
  let nodes = 0;
  let selectors = 0;
  for (const src of sourcesFor(ws, files, warnings)) {
    const doc = await cache.get(src);
    if (isErrorEntry(doc)) {
      errors.push(doc);
      continue;
    }
    const entry = indexDocument(doc);
    if (entry.root === null) warnings.push(`${doc.filePath} has no content`);
    else if (entry.headings.length === 0) warnings.push(`${doc.filePath} has no headings; select its blocks from ${doc.namespace}::root`);
    const rootCount = entry.root === null ? 0 : 1;
    const c = doc.blockCounts;
    const blockCount = c.paragraph + c.code + c.list + c.table + c.blockquote;
    nodes += rootCount + entry.headings.length + blockCount;
    // Each heading is addressable twice: heading:hN[i] and section[j].
    selectors += rootCount + 2 * entry.headings.length + blockCount;
    documents.push(entry);
  }
  if (documents.length === 0) return { outcome: "failure", data: null, errors, ...(warnings.length ? { warnings } : {}) };
  const data: MdselIndexResponse = {
    documents,
    summary: { total_documents: documents.length, total_nodes: nodes, total_selectors: selectors },
  };
  if (errors.length > 0) {
    warnings.push(`${errors.length} of ${files.length} files could not be processed`);
    return { outcome: "partial", data, partial_results: documents, errors, warnings };
  }
  return { outcome: "ok", data, ...(warnings.length ? { warnings } : {}) };
}

export function indexDocument(doc: MdDocument): MdselDocumentIndex {
  const ns = doc.namespace;
  const rootRef: NodeRef = { kind: "root" };
  const [ra, rb] = contentRange(doc, rootRef);
  const rootWords = countWords(doc, ra, rb);
  const root =
    doc.topCount === 0
      ? null
      : {
          selector: `${ns}::root`,
          type: "root",
          content_preview: nodePreview(doc, rootRef),
          truncated: rootWords > DEFAULTS.MAX_WORDS,
          children_count: childrenCount(doc, rootRef),
          word_count: rootWords,
          span: doc.span(ra, rb),
        };
  const perDepth = [0, 0, 0, 0, 0, 0, 0];
  const childCounts = headingChildrenCounts(doc);
  const headings: MdselHeadingDescriptor[] = doc.headings.map((h) => {
    const k = perDepth[h.depth] as number;
    perDepth[h.depth] = k + 1;
    const ref: NodeRef = { kind: "heading", h };
    const own = countWords(doc, h.start, h.end);
    const section = countWords(doc, h.start, h.sectionEnd);
    return {
      selector: `${ns}::heading:h${h.depth}[${k}]`,
      type: `heading:h${h.depth}`,
      depth: h.depth,
      text: h.text,
      content_preview: nodePreview(doc, ref),
      truncated: own > DEFAULTS.MAX_WORDS,
      children_count: childCounts[h.ordinal]!,
      word_count: own,
      section_word_count: section,
      section_truncated: section > DEFAULTS.MAX_WORDS,
      span: doc.span(h.start, h.sectionEnd),
    };
  });
  const c = doc.blockCounts;
  const blocks = { paragraphs: c.paragraph, code_blocks: c.code, lists: c.list, tables: c.table, blockquotes: c.blockquote };
  return { namespace: ns, file_path: doc.filePath, root, headings, blocks };
}
