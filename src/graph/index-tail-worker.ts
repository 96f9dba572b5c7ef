/**
 * Worker thread of a cold index's last steps on the references, on its own connection: the
 * indexes that depend on resolution's outcomes, the end of resolve_pending, the planner's
 * statistics. The main thread resolves the TypeScript files' dependencies meanwhile, writing
 * nothing until this is done (see ingest.ts); on any failure it does these steps itself.
 */
import { parentPort, workerData } from "node:worker_threads";
import { COLD_CACHE_KB, finishColdReferences, openDb } from "./db.js";

const { dbPath, indexedAt } = workerData as { dbPath: string; indexedAt: string };
const db = openDb(dbPath, { write: true });
try {
  // Index builds sort every row: in temporary files, as the indexing connection does (ingest.ts).
  db.pragma("temp_store = FILE");
  db.pragma(`cache_size = -${COLD_CACHE_KB}`);
  finishColdReferences(db, indexedAt);
  parentPort?.postMessage("done");
} finally {
  db.close();
}
