/**
 * The PostgreSQL pool through a database outage (docs/operators/monitoring.md):
 * through a TCP proxy the test owns, a query fails fast when the server refuses connections or
 * does not answer (5 s connect timeout, not postgres.js's 30 s), the failure is classed as the
 * database being unreachable, and the pool is back by itself once the server is. Needs
 * TEST_DATABASE_URL.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTcpProxy, type TcpProxy } from "../../e2e/support/tcp-proxy";
import { openDatabase, POOL_OPTIONS, type Database } from "./connection";
import { throwawayDatabase } from "./testing/throwaway";
import { isDatabaseUnavailable } from "./unavailable";

describe.runIf(process.env.TEST_DATABASE_URL)("the PostgreSQL pool through an outage", () => {
  const { url } = throwawayDatabase("outage");
  let proxy: TcpProxy;
  let database: Database;

  beforeAll(async () => {
    const direct = new URL(url);
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const viaProxy = new URL(url);
    viaProxy.hostname = "127.0.0.1";
    viaProxy.port = String(proxy.port);
    database = await openDatabase({ databaseUrl: viaProxy.href, dataDir: "unused" });
  });

  afterAll(async () => {
    await proxy?.restore();
    await database?.close();
    await proxy?.close();
  });

  /** A query's failure (or undefined) and how long it took. */
  async function timedQuery(): Promise<{ error: unknown; ms: number }> {
    const started = Date.now();
    try {
      await database.db.execute(sql`select 1`);
      return { error: undefined, ms: Date.now() - started };
    } catch (error) {
      return { error, ms: Date.now() - started };
    }
  }

  it("refused: fails at once, as the database unreachable; back by itself after", async () => {
    expect((await timedQuery()).error).toBeUndefined();
    await proxy.cut();
    const during = await timedQuery();
    expect(isDatabaseUnavailable(during.error)).toBe(true);
    expect(during.ms).toBeLessThan(1_000);
    await proxy.restore();
    expect((await timedQuery()).error).toBeUndefined();
  });

  it("no answer: fails within the connect timeout (5 s), not a minute; back by itself after", { timeout: 20_000 }, async () => {
    expect(POOL_OPTIONS.connect_timeout).toBe(5);
    proxy.hang();
    // The pool sees its open connection closed first, so the query needs a new one: never answered.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const during = await timedQuery();
    expect(isDatabaseUnavailable(during.error)).toBe(true);
    expect((during.error as { cause?: { code?: string } }).cause?.code).toBe("CONNECT_TIMEOUT");
    expect(during.ms).toBeGreaterThan(4_000);
    expect(during.ms).toBeLessThan(7_000);
    await proxy.restore();
    expect((await timedQuery()).error).toBeUndefined();
  });
});
