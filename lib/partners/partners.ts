import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { partners, type PartnerRow } from "@/lib/db/schema";

/**
 * The partners table (docs/contributors/architecture.md, "Tenancy"): the agencies using the checkout, read by the checkout, the
 * checkout sessions API, the back-office and the badge alike. Which partner API credential a
 * partner's calls use is `credential.ts`; its checkout sessions API secrets are `api-secrets.ts`
 * (`partnerBySecret`); the demo partners are seeded by lib/demo/seed.ts.
 */

export type Partner = PartnerRow;

/** Whether an operator disabled the partner: its secrets answer 401, its checkouts say it is unavailable. */
export function isPartnerDisabled(partner: Pick<Partner, "disabledAt">): boolean {
  return partner.disabledAt !== null;
}

export async function partnerById(db: Db, id: string): Promise<Partner | undefined> {
  const [row] = await db.select().from(partners).where(eq(partners.id, id)).limit(1);
  return row;
}

/** A return URL is accepted only on one of the partner's own origins. */
/**
 * A return URL's refusal, naming the origins it may be on: the partner reading it is the one who
 * set them (in the operator console), and needs them to fix the call.
 */
export function returnUrlOffOrigins(partner: Pick<Partner, "allowedOrigins">): string {
  return partner.allowedOrigins.length === 0
    ? "must be on one of the partner's allowed origins, and this partner has none yet (an operator sets them)"
    : `must be on one of the partner's allowed origins: ${partner.allowedOrigins.join(", ")}`;
}

export function isAllowedReturnUrl(partner: Pick<Partner, "allowedOrigins">, url: string): boolean {
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    return false;
  }
  return partner.allowedOrigins.includes(origin);
}
