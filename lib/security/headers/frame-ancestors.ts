import "server-only";
import { eq } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import { getDatabase } from "@/lib/db";
import { checkoutSessions, partners } from "@/lib/db/schema";
import { processSingleton } from "@/lib/process/singleton";
import { sanitizeOrigins } from "./csp";
import { logError, loggerFor } from "@/lib/logger";

/**
 * Who may frame a checkout page: its session's partner's allowed origins (the same list the return
 * URL is checked against), looked up by proxy.ts before the page renders. Next 16's proxy runs in
 * the Node.js runtime of the server process, so it shares the process's database (the connection
 * one per process, lib/db). Answers are cached briefly in memory (at most 5,000, the least
 * recently used go first): a session's partner never changes, a partner's origins rarely do (and
 * `forgetFrameAncestors` drops them at once).
 *
 * A lookup that fails answers "none": the page then cannot be framed at all, never by anyone else.
 */

const TTL_MS = 60_000;
/** An unknown session (a typo, a guess) is remembered for less: it may be created in a moment. */
const MISS_TTL_MS = 5_000;
const MAX_ENTRIES = 5_000;

interface Entry {
  partnerId: string | undefined;
  origins: string[];
  /** Kept in the entry (not as the cache's TTL) so that the time can be given per call, as tests do. */
  expires: number;
}

// One per process (lib/process/singleton.ts) so that the proxy's copy of this module and the app's
// (the back-office, changing a partner's origins) share one cache.
function cache(): LRUCache<string, Entry> {
  return processSingleton("security.frame-ancestors", () => new LRUCache<string, Entry>({ max: MAX_ENTRIES }));
}

export type OriginsLookup = (sessionId: string) => Promise<{ partnerId: string; origins: unknown[] } | undefined>;

const databaseLookup: OriginsLookup = async (sessionId) => {
  const { db } = await getDatabase();
  const [row] = await db
    .select({ partnerId: partners.id, origins: partners.allowedOrigins })
    .from(checkoutSessions)
    .innerJoin(partners, eq(partners.id, checkoutSessions.partnerId))
    .where(eq(checkoutSessions.id, sessionId))
    .limit(1);
  return row ? { partnerId: row.partnerId, origins: Array.isArray(row.origins) ? row.origins : [] } : undefined;
};

/** The origins that may frame the checkout of `sessionId`; [] for none. */
export async function frameAncestorsOf(sessionId: string, options: { lookup?: OriginsLookup; now?: number } = {}): Promise<string[]> {
  const now = options.now ?? Date.now();
  const entries = cache();
  const hit = freshEntry(sessionId, now);
  if (hit) return hit.origins;

  let found: Awaited<ReturnType<OriginsLookup>>;
  try {
    found = await (options.lookup ?? databaseLookup)(sessionId);
  } catch (error) {
    logError(loggerFor("security"), "security: looking up who may frame a checkout failed; answering none", error);
    return [];
  }
  return remember(entries, sessionId, found, now).origins;
}

function remember(entries: LRUCache<string, Entry>, sessionId: string, found: Awaited<ReturnType<OriginsLookup>>, now: number): Entry {
  const entry: Entry = {
    partnerId: found?.partnerId,
    origins: found ? sanitizeOrigins(found.origins) : [],
    expires: now + (found ? TTL_MS : MISS_TTL_MS),
  };
  entries.set(sessionId, entry);
  return entry;
}

/**
 * A session just created, with its partner's origins as its creation read them: the checkout's
 * first page on this instance then needs no lookup (the partner's link is usually opened at once).
 */
export function rememberFrameAncestors(sessionId: string, partner: { partnerId: string; origins: unknown[] }, now = Date.now()): void {
  remember(cache(), sessionId, partner, now);
}

/**
 * Whether the last lookup of `sessionId` (by frameAncestorsOf, just before) found no such session.
 * False when it is known, or when the lookup failed (the page then decides, with its own read).
 */
export function isUnknownCheckoutSession(sessionId: string, now = Date.now()): boolean {
  const entry = freshEntry(sessionId, now);
  return entry !== undefined && entry.partnerId === undefined;
}

function freshEntry(sessionId: string, now: number): Entry | undefined {
  const entry = cache().get(sessionId);
  return entry !== undefined && entry.expires > now ? entry : undefined;
}

/** Call after changing a partner's allowed origins (or with no argument, to forget everything). */
export function forgetFrameAncestors(partnerId?: string): void {
  const entries = cache();
  if (partnerId === undefined) {
    entries.clear();
    return;
  }
  const stale = [...entries.entries()].filter(([, entry]) => entry.partnerId === partnerId).map(([sessionId]) => sessionId);
  for (const sessionId of stale) entries.delete(sessionId);
}
