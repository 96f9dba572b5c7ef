/**
 * Checkers kept warm across requests. llmfilewrite (and every writer validating through
 * src/validate/) makes a ValidationSession per run and disposes of it at the end, which in a
 * CLI process is right. Inside the daemon, sessions made by a request lend their checkers from
 * one session that lives as long as the daemon: the TypeScript worker with its parsed program,
 * pyright's language server, started once per daemon instead of once per run. A checker that
 * died or timed out is dropped from the shared session as before, and the next run starts a new one.
 */
import { type Disposable, ValidationSession } from "../validate/session.js";
import { requests } from "./context.js";

let shared: ValidationSession | undefined;

/** Installs the sharing (once); returns what stops the shared checkers. */
export function shareValidationSessions(): () => void {
  if (shared) return () => undefined;
  const keep = new ValidationSession();
  shared = keep;
  const proto = ValidationSession.prototype;
  const { get, drop, dispose } = proto;
  proto.get = function (this: ValidationSession, key: string, make: () => Disposable): Disposable {
    return get.call(requests.getStore() ? keep : this, key, make);
  } as typeof proto.get;
  proto.drop = function (this: ValidationSession, key: string): void {
    drop.call(requests.getStore() ? keep : this, key);
  };
  proto.dispose = function (this: ValidationSession): void {
    if (this === keep || !requests.getStore()) dispose.call(this);
  };
  return () => dispose.call(keep);
}
