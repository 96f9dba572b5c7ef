/** Worker thread: reads and extracts the files it is sent, answers with their rows. */
import { parentPort } from "node:worker_threads";
import { type FileTask, processFile } from "./process-file.js";

parentPort?.on("message", (tasks: FileTask[]) => {
  parentPort?.postMessage(tasks.map((t) => processFile(t)));
});
