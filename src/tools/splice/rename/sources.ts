/**
 * The text a rename plans against: an earlier batch step's bytes when there are some (the
 * overlay), else the file on disk. Paths are root-relative with '/' on the wire, absolute inside.
 */
import { readFileSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { walkFiles } from "../../../text/walk.js";
import { TextOffsets } from "./offsets.js";

export class Sources {
  private readonly cache = new Map<string, TextOffsets | null>();
  /** Overlays by absolute path. */
  readonly overlays = new Map<string, Uint8Array>();

  constructor(
    readonly root: string,
    overlays: Map<string, Uint8Array> | undefined,
  ) {
    for (const [p, bytes] of overlays ?? []) this.overlays.set(this.abs(p), bytes);
  }

  abs(p: string): string {
    return isAbsolute(p) ? resolve(p) : resolve(this.root, p);
  }

  rel(abs: string): string {
    return relative(this.root, abs).split(sep).join("/");
  }

  inside(abs: string): boolean {
    const r = relative(this.root, abs);
    return r !== "" && !r.startsWith("..") && !isAbsolute(r);
  }

  /** Text of a file (absolute path), or undefined when it neither is overlaid nor exists. */
  get(abs: string): TextOffsets | undefined {
    let t = this.cache.get(abs);
    if (t === undefined) {
      const bytes = this.overlays.get(abs) ?? readOrNull(abs);
      t = bytes ? new TextOffsets(bytes) : null;
      this.cache.set(abs, t);
    }
    return t ?? undefined;
  }

  /**
   * Files of the workspace (as a search walks it) that `take` keeps by path and whose text names
   * `name` as a word (and passes `text`, when given), in path order, absolute: at most `limit`,
   * `capped` when another was found past it.
   */
  naming(name: string, take: (rel: string, abs: string) => boolean, limit: number, text?: (t: string) => boolean): { files: string[]; capped: boolean } {
    const word = new RegExp(`(?<![\\w$])${name.replace(/\$/g, "\\$")}(?![\\w$])`);
    const files: string[] = [];
    for (const e of walkFiles({ root: this.root })) {
      if (!take(e.rel, e.abs)) continue;
      const t = this.get(e.abs)?.text;
      if (t === undefined || !t.includes(name) || !word.test(t) || (text !== undefined && !text(t))) continue;
      if (files.length >= limit) return { files, capped: true };
      files.push(e.abs);
    }
    return { files, capped: false };
  }
}

function readOrNull(abs: string): Uint8Array | null {
  try {
    return readFileSync(abs);
  } catch {
    return null;
  }
}
