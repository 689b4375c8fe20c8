import "server-only";
import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { partners, type PartnerRow } from "@/lib/db/schema";
import { DEMO_BLUE_THEME, DEMO_THEME } from "@/lib/theme/demo";
import { storedTheme } from "@/lib/theme/theme";

export type Partner = PartnerRow;

export const DEMO_PARTNER_ID = "demo";
/** A second sandbox partner with a theme of its own (white-label demos and tests). */
export const DEMO_BLUE_PARTNER_ID = "demo-blue";
/** Its bearer secret: a published sandbox credential, seeded only on the sandbox. */
export const DEMO_BLUE_PARTNER_SECRET = "demo_blue_partner_secret_sandbox";

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/**
 * The demo partner (design.md §4): the shop at `/` on this same app, on the sandbox. Its allowed
 * origin is the app's own, so the demo's return URL passes the same check as any partner's;
 * `extraOrigins` adds others (a test's partner page, which frames the checkout). Its theme is
 * seeded only where it has none, so one set in the back-office stays. With `secondPartner` (on
 * the sandbox only: its secret is published), "Rutas Azules (demo)" too, in blue.
 */
export async function seedDemoPartner(
  db: Db,
  options: { secret: string; appUrl: string; extraOrigins?: readonly string[]; secondPartner?: boolean },
): Promise<void> {
  const allowedOrigins = [...new Set([new URL(options.appUrl).origin, ...(options.extraOrigins ?? [])])];
  const row = {
    id: DEMO_PARTNER_ID,
    name: "Viajes Aurora (demo)",
    secretHash: hashSecret(options.secret),
    allowedOrigins,
    theme: storedTheme(DEMO_THEME),
    financingAgencyId: null,
    // The demo shop's own backend endpoint (app/api/demo/notifications), which verifies the signature.
    notificationUrl: `${options.appUrl}/api/demo/notifications`,
    signingSecret: demoSigningSecret(options.secret),
  };
  await db
    .insert(partners)
    .values(row)
    .onConflictDoUpdate({
      target: partners.id,
      set: {
        secretHash: row.secretHash,
        allowedOrigins: row.allowedOrigins,
        name: row.name,
        notificationUrl: row.notificationUrl,
        signingSecret: row.signingSecret,
        theme: sql`coalesce(${partners.theme}, excluded.theme)`,
      },
    });
  if (!options.secondPartner) return;
  const blue = {
    id: DEMO_BLUE_PARTNER_ID,
    name: "Rutas Azules (demo)",
    secretHash: hashSecret(DEMO_BLUE_PARTNER_SECRET),
    allowedOrigins,
    financingAgencyId: null,
    notificationUrl: null,
    signingSecret: null,
    theme: storedTheme(DEMO_BLUE_THEME),
  };
  await db
    .insert(partners)
    .values(blue)
    .onConflictDoUpdate({
      target: partners.id,
      set: { secretHash: blue.secretHash, allowedOrigins: blue.allowedOrigins, name: blue.name, theme: sql`coalesce(${partners.theme}, excluded.theme)` },
    });
}

/** The demo partner's signing secret, derived from its bearer secret so both ends know it. */
export function demoSigningSecret(secret: string): string {
  return `whsec_${createHash("sha256").update(`demo-signing:${secret}`).digest("base64")}`;
}

/** The partner whose secret this is; the secret is compared as a hash, never stored. */
export async function partnerBySecret(db: Db, secret: string): Promise<Partner | undefined> {
  if (secret.length < 16) return undefined;
  const [row] = await db.select().from(partners).where(eq(partners.secretHash, hashSecret(secret))).limit(1);
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
