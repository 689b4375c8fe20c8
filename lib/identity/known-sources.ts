import "server-only";
import { and, eq, gt } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { staffKnownSources } from "@/lib/db/schema";
import { addressBucket } from "@/lib/security/limits/address-bucket";
import { UNKNOWN_IP } from "@/lib/security/network/client-ip";

/**
 * The places an account is known to sign in from: the address (an IPv6 /64) of each full sign-in,
 * both factors given, in the last 90 days. The per-account ceiling on password guesses spares
 * them, so nobody guessing from elsewhere can keep the owner out.
 */

export const KNOWN_SOURCE_TTL_MS = 90 * 24 * 60 * 60_000;

export async function rememberSource(db: Db, userId: string, ip: string, now = new Date()): Promise<void> {
  // A request whose address was not seen is no place anyone can be recognised from.
  if (ip === UNKNOWN_IP) return;
  const source = addressBucket(ip);
  await db
    .insert(staffKnownSources)
    .values({ userId, source, lastSeenAt: now })
    .onConflictDoUpdate({ target: [staffKnownSources.userId, staffKnownSources.source], set: { lastSeenAt: now } });
}

export async function isKnownSource(db: Db, userId: string, ip: string, now = new Date()): Promise<boolean> {
  const [row] = await db
    .select({ source: staffKnownSources.source })
    .from(staffKnownSources)
    .where(
      and(
        eq(staffKnownSources.userId, userId),
        eq(staffKnownSources.source, addressBucket(ip)),
        gt(staffKnownSources.lastSeenAt, new Date(now.getTime() - KNOWN_SOURCE_TTL_MS)),
      ),
    )
    .limit(1);
  return Boolean(row);
}
