import "server-only";
import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { assignAgencies } from "@/lib/backoffice/operations/ownership";
import { enrolWithSecret } from "@/lib/identity/two-factor";
import type { Db } from "@/lib/db";
import { partners, staffUsers } from "@/lib/db/schema";
import type { AppEnv } from "@/lib/config/env";
import { seedKnownSecret } from "@/lib/partners/api-secrets";
import { sealPartnerSecret } from "@/lib/partners/secrets";
import { DEMO_BLUE_THEME, DEMO_THEME } from "@/lib/theme/demo";
import { storedTheme } from "@/lib/theme/theme";

/**
 * The demo data of a sandbox deployment, seeded once at server start (lib/startup.ts): the demo
 * partners with their themes, and the back-office's demo staff. Every credential here is published
 * (like the sandbox's keys), so none of it is ever seeded against the production API.
 */

export const DEMO_PARTNER_ID = "demo";
/** A second sandbox partner with a theme of its own (white-label demos and tests). */
export const DEMO_BLUE_PARTNER_ID = "demo-blue";
/** Its bearer secret: a published sandbox credential, seeded only on the sandbox. */
export const DEMO_BLUE_PARTNER_SECRET = "demo_blue_partner_secret_sandbox";

/**
 * Everything above, on the sandbox only (env.ts sets a demo secret by default there, and refuses
 * one in production): the demo partners and the staff accounts.
 */
export async function seedDemo(
  db: Db,
  env: Pick<AppEnv, "APP_URL" | "DEMO_PARTNER_SECRET" | "DEMO_PARTNER_EXTRA_ORIGINS" | "financing">,
): Promise<void> {
  // Never with the production API: lib/config/env.ts refuses DEMO_PARTNER_SECRET there, and this says it again.
  if (!env.DEMO_PARTNER_SECRET || env.financing.environment !== "sandbox") return;
  await seedDemoPartner(db, {
    secret: env.DEMO_PARTNER_SECRET,
    appUrl: env.APP_URL,
    extraOrigins: env.DEMO_PARTNER_EXTRA_ORIGINS,
    secondPartner: true,
  });
  // The back-office's published demo accounts.
  await seedDemoStaff(db, { appUrl: env.APP_URL });
}

/**
 * The demo partner (docs/contributors/architecture.md, "Tenancy"): the shop at `/` on this same app, on the sandbox. Its allowed
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
    allowedOrigins,
    theme: storedTheme(DEMO_THEME),
    // Where a payment link's customer comes back to: the demo shop, as its own checkouts do.
    defaultReturnUrl: `${options.appUrl}/`,
    financingAgencyId: null,
    // The demo shop's own backend endpoint (lib/demo/partner-backend.ts), which verifies the signature.
    notificationUrl: `${options.appUrl}/api/demo/notifications`,
    signingSecret: sealPartnerSecret(DEMO_PARTNER_ID, "signingSecret", demoSigningSecret(options.secret)),
  };
  await db
    .insert(partners)
    .values(row)
    .onConflictDoUpdate({
      target: partners.id,
      set: {
        allowedOrigins: row.allowedOrigins,
        name: row.name,
        notificationUrl: row.notificationUrl,
        signingSecret: row.signingSecret,
        // The published secret again, alone: a rotation made in the back-office ends at a restart.
        previousSigningSecret: null,
        previousSigningSecretExpiresAt: null,
        defaultReturnUrl: row.defaultReturnUrl,
        theme: sql`coalesce(${partners.theme}, excluded.theme)`,
      },
    });
  // Its published secret for the checkout sessions API, among any others made in the console.
  await seedKnownSecret(db, DEMO_PARTNER_ID, DEMO_SECRET_ID, DEMO_SECRET_NAME, options.secret);
  if (!options.secondPartner) return;
  const blue = {
    id: DEMO_BLUE_PARTNER_ID,
    name: "Rutas Azules (demo)",
    allowedOrigins,
    financingAgencyId: null,
    notificationUrl: null,
    signingSecret: null,
    theme: storedTheme(DEMO_BLUE_THEME),
    defaultReturnUrl: `${options.appUrl}/`,
  };
  await db
    .insert(partners)
    .values(blue)
    .onConflictDoUpdate({
      target: partners.id,
      set: {
        allowedOrigins: blue.allowedOrigins,
        name: blue.name,
        defaultReturnUrl: blue.defaultReturnUrl,
        theme: sql`coalesce(${partners.theme}, excluded.theme)`,
      },
    });
  await seedKnownSecret(db, DEMO_BLUE_PARTNER_ID, `${DEMO_SECRET_ID}-blue`, DEMO_SECRET_NAME, DEMO_BLUE_PARTNER_SECRET);
}

/** The demo partners' published secrets: fixed ids, so a restart writes them again in place. */
const DEMO_SECRET_ID = "sec_demo_published";
const DEMO_SECRET_NAME = "Published demo secret";

/** The demo partner's signing secret, derived from its bearer secret so both ends know it. */
export function demoSigningSecret(secret: string): string {
  return `whsec_${createHash("sha256").update(`demo-signing:${secret}`).digest("base64")}`;
}

/**
 * The back-office's demo accounts, seeded with the demo partner on the sandbox only (never in
 * production): published test credentials, like the sandbox's keys.
 * - `staff@viajes-aurora.example` / `aurora-staff-demo`: the demo partner (the deployment's key,
 *   agency 101 on the sandbox): an agency key, so no agency switcher.
 * - `staff@grupo-demo.example` / `grupo-staff-demo`: "Grupo Demo", a partner with its own
 *   management group key (`fk_test_sandbox_group_1`, agencies 101 and 102), so the switcher shows.
 * Which operations each one's staff may see is the partners' agency assignments
 * (lib/backoffice/operations/ownership.ts): Viajes Aurora has agency 101; Grupo Demo has 102 and 103 but not
 * 101, which its group key reaches yet belongs to Viajes Aurora.
 * - `seguridad@viajes-aurora.example` / `aurora-security-demo`: a second staff member of the demo
 *   partner, for trying (and testing) password changes and "sign out everywhere" without
 *   disturbing the first.
 * - `sesiones@viajes-aurora.example` / `aurora-sessions-demo`: a third, as the second; the browser
 *   tests end its sessions and change its password while the second signs in for the others (a
 *   TOTP code works once per account, so four sign-ins in a row on one account waited for new
 *   codes).
 * - `nuevo@viajes-aurora.example` / `aurora-new-demo`: a staff member without a second factor:
 *   the password alone opens nothing; an enrolment link (`npm run admin -- enrolment-link`) sets
 *   it up.
 * - `agente@viajes-aurora.example` / `aurora-agent-demo`: an agent of the demo partner who may not
 *   refund: operations, payment links and cancelling, no staff or settings pages, no refund.
 * All but the agent are admins who may refund (what every account could do before roles). The
 * second factor of all but `nuevo@` is enrolled with the published TOTP secret
 * {@link DEMO_TOTP_SECRET} (any authenticator app, or `otplib`, gives the codes).
 */

/** Published, like the passwords above: the demo accounts' TOTP secret (base32), sandbox only. */
export const DEMO_TOTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

export const DEMO_GROUP_PARTNER_ID = "demo-group";

/** The demo partners' agencies (`partner_agencies`): what makes an agency's operations theirs. */
export const DEMO_AGENCY_ASSIGNMENTS: Readonly<Record<string, readonly number[]>> = {
  [DEMO_PARTNER_ID]: [101],
  [DEMO_GROUP_PARTNER_ID]: [102, 103],
};

/*
 * Each account's password comes with its scrypt hash, made once with `hashPassword` at today's cost:
 * the passwords are published, so their hashes tell nothing more, and every fresh demo database
 * (each test database, each new server's data folder) no longer pays six deliberately slow hashes.
 * seed.test.ts checks that each hash opens its password at today's cost.
 */
export const DEMO_STAFF = [
  {
    id: "staff_demo_aurora",
    partnerId: DEMO_PARTNER_ID,
    role: "admin",
    canRefund: true,
    email: "staff@viajes-aurora.example",
    name: "Lucía Ortega",
    password: "aurora-staff-demo",
    passwordHash: "scrypt$131072$8$1$qb490b/DbTa2+Y6yT/f+0w==$7RMnIQ+xDoFSgP9rSasjKmdx1sCjzxVIaDGsXoezi6s=",
    twoFactor: true,
  },
  {
    id: "staff_demo_grupo",
    partnerId: DEMO_GROUP_PARTNER_ID,
    role: "admin",
    canRefund: true,
    email: "staff@grupo-demo.example",
    name: "Marcos Vidal",
    password: "grupo-staff-demo",
    passwordHash: "scrypt$131072$8$1$9gvYlijd3xL4cus/Z6EQOw==$3uXOA3rj/Eifm/PCrGQpbmkNvVz0XfmaP3s7oG5I3LU=",
    twoFactor: true,
  },
  {
    id: "staff_demo_aurora_security",
    partnerId: DEMO_PARTNER_ID,
    role: "admin",
    canRefund: true,
    email: "seguridad@viajes-aurora.example",
    name: "Ana Ruiz",
    password: "aurora-security-demo",
    passwordHash: "scrypt$131072$8$1$Ca/qts4+X91gJFaKeILVrg==$TCADxCW4HAgdLtkNqeIz4K7vKo/gfafoChcsa2Flcqg=",
    twoFactor: true,
  },
  {
    id: "staff_demo_aurora_sessions",
    partnerId: DEMO_PARTNER_ID,
    role: "admin",
    canRefund: true,
    email: "sesiones@viajes-aurora.example",
    name: "Diego Marín",
    password: "aurora-sessions-demo",
    passwordHash: "scrypt$131072$8$1$3RtA2jp5ZBJzMKQyBEMhLw==$A5+ghZpk9a7Ev6SS4nlWMx4NjA5FFFznRJ0shIrHJKA=",
    twoFactor: true,
  },
  {
    id: "staff_demo_aurora_new",
    partnerId: DEMO_PARTNER_ID,
    role: "admin",
    canRefund: true,
    email: "nuevo@viajes-aurora.example",
    name: "Pablo Nuevo",
    password: "aurora-new-demo",
    passwordHash: "scrypt$131072$8$1$P5APOT1Wv33lWLQRMq/bvg==$PF4PBBzYyplO4Gyc+Dh4eINxuUY/9T1yl53VU03tL4I=",
    twoFactor: false,
  },
  {
    id: "staff_demo_aurora_agent",
    partnerId: DEMO_PARTNER_ID,
    role: "agent",
    canRefund: false,
    email: "agente@viajes-aurora.example",
    name: "Carmen Vega",
    password: "aurora-agent-demo",
    passwordHash: "scrypt$131072$8$1$UpP9jJAXO2YmNQak4O/jrQ==$GrmpqF7BjzlZRVrW2tsDytHZ9eEvzDTdPeJ2Lh0F+W0=",
    twoFactor: true,
  },
] as const;

export async function seedDemoStaff(db: Db, options: { appUrl: string }): Promise<void> {
  const group = {
    id: DEMO_GROUP_PARTNER_ID,
    name: "Grupo Demo",
    // No checkout sessions API secret: it opens no checkout sessions in the demo.
    allowedOrigins: [new URL(options.appUrl).origin],
    defaultReturnUrl: `${options.appUrl}/`,
    financingApiKey: sealPartnerSecret(DEMO_GROUP_PARTNER_ID, "financingApiKey", "fk_test_sandbox_group_1"),
    financingKeyLast4: "up_1",
    // Its own agency: 101 is reached by its key but is Viajes Aurora's.
    financingAgencyId: 102,
  };
  await db
    .insert(partners)
    .values(group)
    .onConflictDoUpdate({
      target: partners.id,
      set: {
        name: group.name,
        allowedOrigins: group.allowedOrigins,
        defaultReturnUrl: group.defaultReturnUrl,
        financingApiKey: group.financingApiKey,
        financingKeyLast4: group.financingKeyLast4,
        financingAgencyId: group.financingAgencyId,
      },
    });

  for (const [partnerId, agencyIds] of Object.entries(DEMO_AGENCY_ASSIGNMENTS)) await assignAgencies(db, partnerId, agencyIds);

  for (const staff of DEMO_STAFF) {
    // Hashed only when missing: scrypt is slow on purpose, and an existing account is left alone,
    // but for the published second factor of an account from before there was one.
    const [exists] = await db
      .select({ id: staffUsers.id, totpEnabledAt: staffUsers.totpEnabledAt })
      .from(staffUsers)
      .where(eq(staffUsers.id, staff.id))
      .limit(1);
    if (exists) {
      if (staff.twoFactor && !exists.totpEnabledAt) await enrolWithSecret(db, staff.id, DEMO_TOTP_SECRET, []);
      continue;
    }
    await db
      .insert(staffUsers)
      .values({
        id: staff.id,
        partnerId: staff.partnerId,
        role: staff.role,
        canRefund: staff.canRefund,
        email: staff.email,
        name: staff.name,
        passwordHash: staff.passwordHash,
      })
      .onConflictDoNothing();
    if (staff.twoFactor) await enrolWithSecret(db, staff.id, DEMO_TOTP_SECRET, []);
  }
}
