import { PyrightServer } from "./checkers/python.js";
import { TsProject } from "./checkers/typescript.js";

/**
 * The long-lived checkers of one run: a TypeScript LanguageService per project and a pyright
 * language server per workspace, started on first use and reused for every later file (splice
 * validates several files per operation). `dispose()` stops them; a caller that validates once
 * can let validateContent() make and dispose its own session.
 */
export class ValidationSession {
  private readonly ts = new Map<string, TsProject>();
  private readonly py = new Map<string, PyrightServer>();

  constructor(readonly env: NodeJS.ProcessEnv = process.env) {}

  tsProject(configFile: string | undefined, dir: string): TsProject {
    const key = configFile ?? `dir:${dir}`;
    let p = this.ts.get(key);
    if (!p) {
      p = new TsProject(configFile, dir);
      this.ts.set(key, p);
    }
    return p;
  }

  pyright(workspaceDir: string): PyrightServer {
    let s = this.py.get(workspaceDir);
    if (!s || !s.alive) {
      s = new PyrightServer(workspaceDir, this.env);
      this.py.set(workspaceDir, s);
    }
    return s;
  }

  /** Forgets (and stops) a server that timed out or broke, so the next file starts a fresh one. */
  dropPyright(workspaceDir: string): void {
    this.py.get(workspaceDir)?.dispose();
    this.py.delete(workspaceDir);
  }

  dispose(): void {
    for (const p of this.ts.values()) p.dispose();
    for (const s of this.py.values()) s.dispose();
    this.ts.clear();
    this.py.clear();
  }
}
