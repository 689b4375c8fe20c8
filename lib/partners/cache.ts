import "server-only";
import { LRUCache } from "lru-cache";
import type { Db } from "@/lib/db";
import { processSingleton } from "@/lib/process/singleton";
import { partnerById, type Partner } from "./partners";

/**
 * The partners the customer-facing pages read on every request (the checkout's pages, the status
 * polls, the demo shop, the theme stylesheet), kept in memory for a few seconds: a partner's row is
 * the same for thousands of requests, and reading it was one database query per page.
 *
 * How stale it can be: PARTNER_CACHE_TTL_MS. Several instances share one PostgreSQL, so a change
 * made on another instance (a theme, allowed origins, the name, a new API key) shows on this one's
 * checkout pages within that time; a change made on this instance is seen at once (the writers call
 * forgetPartner). The back-office, the checkout sessions API and the notifications read the
 * database directly, never this cache.
 */

export const PARTNER_CACHE_TTL_MS = 5_000;
const MAX_PARTNERS = 1_000;

/** `partner: undefined` remembers a partner that does not exist (for the same short time). */
type Entry = { partner: Partner | undefined };

// One cache per database (tests open several), one set per process (lib/process/singleton.ts) so
// that every copy of this module in the server (the proxy's bundle, the app's) shares it and
// forgetPartner reaches it.
interface PartnerCaches {
  byDb: WeakMap<Db, LRUCache<string, Entry>>;
  /** Every cache made, to forget a partner in all of them (WeakRefs: a closed test database may go). */
  made: WeakRef<LRUCache<string, Entry>>[];
}
const caches = () => processSingleton<PartnerCaches>("partners.caches", () => ({ byDb: new WeakMap(), made: [] }));

function cacheFor(db: Db): LRUCache<string, Entry> {
  let cache = caches().byDb.get(db);
  if (!cache) {
    cache = new LRUCache<string, Entry>({
      max: MAX_PARTNERS,
      ttl: PARTNER_CACHE_TTL_MS,
      // Concurrent requests for a partner not yet cached wait for one read instead of each making theirs.
      fetchMethod: async (id) => ({ partner: await partnerById(db, id) }),
    });
    caches().byDb.set(db, cache);
    caches().made.push(new WeakRef(cache));
  }
  return cache;
}

/** The partner, from memory when read less than PARTNER_CACHE_TTL_MS ago; undefined when there is none. */
export async function cachedPartnerById(db: Db, id: string): Promise<Partner | undefined> {
  const entry = await cacheFor(db).fetch(id);
  return entry?.partner;
}

/** Call after changing a partner (or with no argument, after changing several): the next read goes to the database. */
export function forgetPartner(id?: string): void {
  for (const ref of caches().made) {
    const cache = ref.deref();
    if (!cache) continue;
    if (id === undefined) cache.clear();
    else cache.delete(id);
  }
}
