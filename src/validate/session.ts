/** Something a session keeps alive between files and stops at the end. */
export interface Disposable {
  dispose(): void;
  /** False once the thing died on its own (a server that exited): it is then replaced. */
  readonly alive?: boolean;
}

/**
 * The long-lived checkers of one run: a TypeScript program per project and a pyright
 * language server per workspace, started on first use and reused for every later file (splice
 * validates several files per operation). `dispose()` stops them; a caller that validates once
 * can let validateContent() make and dispose its own session. Checkers are keyed by name so
 * this module loads none of them: a run that never checks TypeScript never loads the compiler.
 */
export class ValidationSession {
  private readonly live = new Map<string, Disposable>();
  private disposed = false;

  constructor(readonly env: NodeJS.ProcessEnv = process.env) {}

  /** The checker kept under `key`, made by `make` on first use (or after it died). */
  get<T extends Disposable>(key: string, make: () => T): T {
    if (this.disposed) {
      // A checker that starts after the run ended (its check outlived a failure) must not
      // keep the process alive: it is stopped at once, and its check fails.
      const late = make();
      late.dispose();
      return late;
    }
    const have = this.live.get(key);
    if (have && have.alive !== false) return have as T;
    have?.dispose();
    const made = make();
    this.live.set(key, made);
    return made;
  }

  /** Forgets (and stops) a checker that timed out or broke, so the next file starts a fresh one. */
  drop(key: string): void {
    this.live.get(key)?.dispose();
    this.live.delete(key);
  }

  dispose(): void {
    this.disposed = true;
    for (const d of this.live.values()) d.dispose();
    this.live.clear();
  }
}
