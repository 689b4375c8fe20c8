import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { defaultMigrationsDir } from "../connection";

/**
 * A copy of the migrations folder in `dir` holding every migration before the one whose tag ends
 * with `suffix`: the schema as it was, for a test to write rows the way they were and then open
 * the database with every migration (the default folder) to see them upgraded. Returns the folder.
 */
export function migrationsBefore(suffix: string, dir: string): string {
  const before = path.join(dir, "migrations");
  cpSync(defaultMigrationsDir(), before, { recursive: true });
  const journalFile = path.join(before, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((entry) => entry.tag.endsWith(suffix));
  if (at < 1) throw new Error(`No migration after the first ends with ${suffix}`);
  writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
  return before;
}
