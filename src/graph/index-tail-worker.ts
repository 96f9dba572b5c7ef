/**
 * Worker thread of a cold index's last steps on the references, on its own connection: the
 * indexes that depend on resolution's outcomes, the end of resolve_pending, the planner's
 * statistics. The main thread resolves the TypeScript files' dependencies meanwhile, writing
 * nothing until this is done (see ingest.ts); on any failure it does these steps itself.
 */
import { parentPort, workerData } from "node:worker_threads";
import { openDb, REF_INDEXES, setMeta } from "./db.js";

const { dbPath, indexedAt } = workerData as { dbPath: string; indexedAt: string };
const db = openDb(dbPath, { write: true });
try {
  db.pragma("temp_store = FILE");
  db.exec(REF_INDEXES);
  db.transaction(() => {
    setMeta(db, "last_index_time", indexedAt);
    setMeta(db, "resolve_pending", "0");
  })();
  db.pragma("analysis_limit = 1000");
  db.exec("ANALYZE");
  parentPort?.postMessage("done");
} finally {
  db.close();
}
