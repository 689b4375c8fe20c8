import postgres from "postgres";
import { afterAll, beforeAll } from "vitest";

/**
 * A PostgreSQL database of the suite's own, made from TEST_DATABASE_URL before its tests and
 * dropped after them (forcefully: a test that failed may have left a connection open). Call it
 * inside a `describe.runIf(process.env.TEST_DATABASE_URL)` block; `url` is the database's URL.
 */
export function throwawayDatabase(prefix: string): { url: string } {
  const server = new URL(process.env.TEST_DATABASE_URL ?? "postgres://unused");
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  const throwaway = new URL(server);
  throwaway.pathname = `/${name}`;
  let admin: postgres.Sql | undefined;
  beforeAll(async () => {
    admin = postgres(server.href, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${name}"`);
  });
  afterAll(async () => {
    if (!admin) return;
    try {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
    } finally {
      await admin.end({ timeout: 5 });
    }
  });
  return { url: throwaway.href };
}
