import "server-only";
import { and, eq, isNotNull, isNull, or } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { partners, type PartnerRow } from "@/lib/db/schema";
import { getEnv } from "@/lib/config/env";
import { forgetPartner } from "./cache";
import { needsReseal, openWith, sealWith } from "@/lib/security/secrets/secret-box";
import type { Keyring } from "@/lib/config/keyring";

/**
 * A partner's secrets at rest: its own partner API key (`financing_api_key`) and the secrets its
 * notifications are signed with (`signing_secret`, and `previous_signing_secret` for a day after a
 * rotation) are stored sealed (lib/security/secrets/secrets.ts),
 * each bound to its column and its partner's id, so a ciphertext copied onto another partner does
 * not open there. Every write goes through `sealPartnerSecret`, every read through
 * `openPartnerSecret`; `resealPartnerSecrets` (at start) seals what is still plaintext and what an
 * older key sealed.
 */

export type PartnerSecretColumn = "financingApiKey" | "signingSecret" | "previousSigningSecret";

const COLUMN_NAMES: Record<PartnerSecretColumn, string> = {
  financingApiKey: "partners.financing_api_key",
  signingSecret: "partners.signing_secret",
  previousSigningSecret: "partners.previous_signing_secret",
};
const COLUMNS: readonly PartnerSecretColumn[] = ["financingApiKey", "signingSecret", "previousSigningSecret"];

function context(column: PartnerSecretColumn, partnerId: string): string {
  return `${COLUMN_NAMES[column]}:${partnerId}`;
}

export function sealPartnerSecret(partnerId: string, column: PartnerSecretColumn, plaintext: string, keyring?: Keyring): string {
  return sealWith(keyring ?? getEnv().SECRETS_KEYS, plaintext, context(column, partnerId));
}

/** The plaintext of a partner's secret, or null when it has none. */
export function openPartnerSecret<C extends PartnerSecretColumn>(
  partner: Pick<PartnerRow, "id" | C>,
  column: C,
  keyring?: Keyring,
): string | null {
  const stored = partner[column];
  return stored === null ? null : openWith(keyring ?? getEnv().SECRETS_KEYS, stored, context(column, partner.id));
}

/**
 * Seals, under the current key (the first of SECRETS_KEYS), every partner secret stored as
 * plaintext or under an older key: rotation is "put the new key first, restart, then drop the old
 * one". A value that no listed key opens throws (the server does not start). Each row is written
 * only if it has not changed meanwhile, so an instance starting beside another loses no write.
 * Returns how many values were sealed again.
 */
export async function resealPartnerSecrets(db: Db, keyring?: Keyring): Promise<number> {
  const ring = keyring ?? getEnv().SECRETS_KEYS;
  const rows = await db
    .select({
      id: partners.id,
      financingApiKey: partners.financingApiKey,
      signingSecret: partners.signingSecret,
      previousSigningSecret: partners.previousSigningSecret,
    })
    .from(partners)
    .where(or(isNotNull(partners.financingApiKey), isNotNull(partners.signingSecret), isNotNull(partners.previousSigningSecret)));
  let resealed = 0;
  for (const row of rows) {
    for (const column of COLUMNS) {
      const stored = row[column];
      if (stored === null || !needsReseal(ring, stored)) continue;
      const sealed = sealPartnerSecret(row.id, column, openPartnerSecret(row, column, ring)!, ring);
      const updated = await db
        .update(partners)
        .set({ [column]: sealed })
        .where(and(eq(partners.id, row.id), eq(partners[column], stored)))
        .returning({ id: partners.id });
      resealed += updated.length;
    }
  }
  await fillFinancingKeyLast4(db, ring);
  if (resealed > 0) forgetPartner();
  return resealed;
}

/** The last four characters of a partner API key: all the console ever shows of it. */
export function keyLast4(key: string): string {
  return key.slice(-4);
}

/**
 * Keys stored before their last four characters were kept (or written by hand): the console shows
 * which key a partner has, so they are filled in, once, where the key is opened anyway.
 */
async function fillFinancingKeyLast4(db: Db, ring: Keyring): Promise<void> {
  const rows = await db
    .select({ id: partners.id, financingApiKey: partners.financingApiKey })
    .from(partners)
    .where(and(isNotNull(partners.financingApiKey), isNull(partners.financingKeyLast4)));
  for (const row of rows) {
    const key = openPartnerSecret(row, "financingApiKey", ring);
    if (key === null) continue;
    await db
      .update(partners)
      .set({ financingKeyLast4: keyLast4(key) })
      .where(and(eq(partners.id, row.id), eq(partners.financingApiKey, row.financingApiKey!)));
  }
}
