/**
 * Writes schemas/*.json from the zod source (`npm run schemas`), or with `--check` exits 1 when
 * the committed files differ from what the source generates.
 */
import { mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { renderSchemas } from "./registry.js";

export const SCHEMA_DIR = fileURLToPath(new URL("../../../schemas/", import.meta.url));

export async function staleSchemas(dir: string = SCHEMA_DIR): Promise<string[]> {
  const want = await renderSchemas();
  const stale: string[] = [];
  let have: string[] = [];
  try {
    have = readdirSync(dir).filter((f) => f.endsWith(".schema.json"));
  } catch {
    // no directory yet: everything is stale
  }
  for (const [file, text] of want) {
    let current: string | undefined;
    try {
      current = readFileSync(join(dir, file), "utf8");
    } catch {
      current = undefined;
    }
    if (current !== text) stale.push(file);
  }
  for (const f of have) if (!want.has(f)) stale.push(f);
  return stale.sort();
}

async function main(): Promise<void> {
  if (process.argv.includes("--check")) {
    const stale = await staleSchemas();
    if (stale.length > 0) {
      process.stderr.write(`stale schemas (run 'npm run schemas'): ${stale.join(", ")}\n`);
      process.exitCode = 1;
    }
    return;
  }
  mkdirSync(SCHEMA_DIR, { recursive: true });
  const want = await renderSchemas();
  for (const f of readdirSync(SCHEMA_DIR)) if (f.endsWith(".schema.json") && !want.has(f)) unlinkSync(join(SCHEMA_DIR, f));
  for (const [file, text] of want) writeFileSync(join(SCHEMA_DIR, file), text);
  process.stderr.write(`wrote ${want.size} schemas to ${SCHEMA_DIR}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
