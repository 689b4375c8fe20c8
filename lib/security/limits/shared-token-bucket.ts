import "server-only";
import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db";

/**
 * Token buckets in the database (`token_buckets`), so that every instance spends the same budget
 * (lib/security/limits/token-bucket.ts is per instance: right for a cache, not for a limit that must hold
 * across instances). Each bucket holds up to `capacity` tokens and gets `perHour` back per hour,
 * continuously; taking one is a single INSERT … ON CONFLICT DO UPDATE … WHERE, so concurrent takers
 * are serialised by the row lock and never overdraw it.
 */

export interface BucketRule {
  capacity: number;
  perHour: number;
}

/**
 * Takes one token from each bucket, all or none (one transaction): false when any of them is empty,
 * and then nothing is taken from the others. Keys in a fixed order across callers (no deadlock).
 */
export async function takeTokens(db: Db, buckets: readonly { key: string; rule: BucketRule }[], now = new Date()): Promise<boolean> {
  try {
    await db.transaction(async (tx) => {
      for (const { key, rule } of buckets) {
        if (!(await takeOne(tx, key, rule, now))) throw new BucketEmpty();
      }
    });
    return true;
  } catch (error) {
    if (error instanceof BucketEmpty) return false;
    throw error;
  }
}

class BucketEmpty extends Error {}

async function takeOne(db: Pick<Db, "execute">, key: string, rule: BucketRule, now: Date): Promise<boolean> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const perSecond = rule.perHour / 3600;
  // What the bucket holds now: its tokens then, plus the refill since, at most full.
  const level = sql`least(${rule.capacity}::double precision, b.tokens + greatest(extract(epoch from (${at} - b.updated_at)), 0) * ${perSecond}::double precision)`;
  const result = await db.execute(sql`
    insert into token_buckets as b (key, tokens, updated_at)
    values (${key}, ${rule.capacity - 1}, ${at})
    on conflict (key) do update set tokens = ${level} - 1, updated_at = ${at}
    where ${level} >= 1
    returning tokens
  `);
  return rowsOf(result).length > 0;
}

// postgres.js returns the rows as an array, PGlite as `{ rows }`.
function rowsOf(result: unknown): unknown[] {
  if (Array.isArray(result)) return result as unknown[];
  return (result as { rows?: unknown[] }).rows ?? [];
}
