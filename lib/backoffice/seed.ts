import "server-only";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { partners, staffUsers } from "@/lib/db/schema";
import { DEMO_PARTNER_ID, hashSecret } from "@/lib/checkout/partners";
import { hashPassword } from "./passwords";

/**
 * The back-office's demo accounts, seeded with the demo partner on the sandbox only (never in
 * production): published test credentials, like the sandbox's keys.
 * - `staff@viajes-aurora.example` / `aurora-staff-demo`: the demo partner (the deployment's key,
 *   agency 101 on the sandbox): an agency key, so no agency switcher.
 * - `staff@grupo-demo.example` / `grupo-staff-demo`: "Grupo Demo", a partner with its own
 *   management group key (`fk_test_sandbox_group_1`, agencies 101 and 102), so the switcher shows.
 */

export const DEMO_GROUP_PARTNER_ID = "demo-group";

export const DEMO_STAFF = [
  { id: "staff_demo_aurora", partnerId: DEMO_PARTNER_ID, email: "staff@viajes-aurora.example", name: "Lucía Ortega", password: "aurora-staff-demo" },
  { id: "staff_demo_grupo", partnerId: DEMO_GROUP_PARTNER_ID, email: "staff@grupo-demo.example", name: "Marcos Vidal", password: "grupo-staff-demo" },
] as const;

export async function seedBackoffice(db: Db, options: { appUrl: string }): Promise<void> {
  const group = {
    id: DEMO_GROUP_PARTNER_ID,
    name: "Grupo Demo",
    // Its own secret is never used here (it opens no checkout sessions in the demo): a random one.
    secretHash: hashSecret(randomBytes(32).toString("base64url")),
    allowedOrigins: [new URL(options.appUrl).origin],
    financingApiKey: "fk_test_sandbox_group_1",
    financingAgencyId: 101,
  };
  await db
    .insert(partners)
    .values(group)
    .onConflictDoUpdate({
      target: partners.id,
      set: { name: group.name, allowedOrigins: group.allowedOrigins, financingApiKey: group.financingApiKey, financingAgencyId: group.financingAgencyId },
    });

  for (const staff of DEMO_STAFF) {
    // Hashed only when missing: scrypt is slow on purpose, and an existing account is left alone.
    const [exists] = await db.select({ id: staffUsers.id }).from(staffUsers).where(eq(staffUsers.id, staff.id)).limit(1);
    if (exists) continue;
    await db
      .insert(staffUsers)
      .values({ id: staff.id, partnerId: staff.partnerId, email: staff.email, name: staff.name, passwordHash: await hashPassword(staff.password) })
      .onConflictDoNothing();
  }
}
