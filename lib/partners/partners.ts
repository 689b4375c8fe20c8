import "server-only";
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { partners, type PartnerRow } from "@/lib/db/schema";

/**
 * The partners table (docs/architecture.md, "Tenancy"): the agencies using the checkout, read by the checkout, the
 * checkout sessions API, the back-office and the badge alike. Which partner API credential a
 * partner's calls use is `credential.ts`; the demo partners are seeded by lib/demo/seed.ts.
 */

export type Partner = PartnerRow;

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** The partner whose secret this is; the secret is compared as a hash, never stored. */
export async function partnerBySecret(db: Db, secret: string): Promise<Partner | undefined> {
  if (secret.length < 16) return undefined;
  const [row] = await db
    .select()
    .from(partners)
    .where(eq(partners.secretHash, hashSecret(secret)))
    .limit(1);
  return row;
}

export async function partnerById(db: Db, id: string): Promise<Partner | undefined> {
  const [row] = await db.select().from(partners).where(eq(partners.id, id)).limit(1);
  return row;
}

/** A return URL is accepted only on one of the partner's own origins. */
export function isAllowedReturnUrl(partner: Pick<Partner, "allowedOrigins">, url: string): boolean {
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    return false;
  }
  return partner.allowedOrigins.includes(origin);
}
