import "server-only";
import { and, asc, count, eq, gt, isNotNull, isNull, or, sql } from "drizzle-orm";
import { recordActorAudit, type AuditActor } from "@/lib/audit/audit";
import { checkNotificationUrl, notificationUrlProblem, setNotificationUrl } from "@/lib/checkout/background/notification-url";
import type { Db } from "@/lib/db";
import { partnerAgencies, partnerApiSecrets, partners, staffUsers } from "@/lib/db/schema";
import { DEMO_PARTNER_IDS } from "@/lib/demo/remove";
import type { FinancingEnvironment } from "@/lib/config/env";
import { forgetPartner } from "@/lib/partners/cache";
import { partnerById, type Partner } from "@/lib/partners/partners";
import { linkUrl } from "@/lib/identity/links";
import { createPartnerAdminInvitation } from "@/lib/identity/member-invitations";
import { getEnv } from "@/lib/config/env";
import { credentialSummary, type CredentialSummary } from "./credential";
import {
  checkDefaultReturnUrl,
  checkOrigins,
  checkPartnerId,
  checkPartnerName,
  type OriginProblem,
  type PartnerIdProblem,
  type ReturnUrlProblem,
  checkRetentionDays,
  type RetentionProblem,
} from "./settings";

/**
 * The operator console's partners (app/operator/partners): listed, created, their settings edited,
 * disabled and enabled again, their agencies and their first administrator. Every change is audited
 * against the partner, by the operator who made it (`details.actor: operator`); a change forgets the
 * partner in this instance's cache (lib/partners/cache.ts), and other instances see it within its
 * few seconds. The credential is `credential.ts`; the API secrets lib/backoffice/api-secrets.
 */

export interface PartnerListItem {
  id: string;
  name: string;
  disabledAt: Date | null;
  createdAt: Date;
  credential: CredentialSummary;
  /** Secrets that work now (active, or in a rotation's overlap). */
  workingSecrets: number;
  agencies: number[];
  staff: number;
}

export async function listPartners(db: Db, now = new Date()): Promise<PartnerListItem[]> {
  const rows = await db
    .select({
      id: partners.id,
      name: partners.name,
      disabledAt: partners.disabledAt,
      createdAt: partners.createdAt,
      financingApiKey: partners.financingApiKey,
      financingKeyLast4: partners.financingKeyLast4,
      financingAgencyId: partners.financingAgencyId,
    })
    .from(partners)
    .orderBy(asc(partners.name), asc(partners.id));
  const secrets = await db
    .select({ partnerId: partnerApiSecrets.partnerId, n: count() })
    .from(partnerApiSecrets)
    .where(and(isNull(partnerApiSecrets.revokedAt), or(isNull(partnerApiSecrets.expiresAt), gt(partnerApiSecrets.expiresAt, now))))
    .groupBy(partnerApiSecrets.partnerId);
  const staff = await db.select({ partnerId: staffUsers.partnerId, n: count() }).from(staffUsers).groupBy(staffUsers.partnerId);
  const assigned = await db.select().from(partnerAgencies).orderBy(asc(partnerAgencies.agencyId));
  const countOf = (counts: { partnerId: string | null; n: number }[], id: string) => counts.find((c) => c.partnerId === id)?.n ?? 0;
  return rows.map(({ financingApiKey, financingKeyLast4, financingAgencyId, ...row }) => ({
    ...row,
    credential: credentialSummary({ financingApiKey, financingKeyLast4, financingAgencyId }),
    workingSecrets: countOf(secrets, row.id),
    agencies: assigned.filter((a) => a.partnerId === row.id).map((a) => a.agencyId),
    staff: countOf(staff, row.id),
  }));
}

/** The partner and what its page shows beside it. */
export async function partnerForConsole(
  db: Db,
  id: string,
): Promise<{ partner: Partner; credential: CredentialSummary; agencies: number[]; staff: number } | undefined> {
  const partner = await partnerById(db, id);
  if (!partner) return undefined;
  const agencies = await db
    .select({ agencyId: partnerAgencies.agencyId })
    .from(partnerAgencies)
    .where(eq(partnerAgencies.partnerId, id))
    .orderBy(asc(partnerAgencies.agencyId));
  const [staff] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(staffUsers)
    .where(eq(staffUsers.partnerId, id));
  return { partner, credential: credentialSummary(partner), agencies: agencies.map((a) => a.agencyId), staff: staff?.n ?? 0 };
}

export type CreatePartnerResult =
  | { ok: true; id: string }
  /** Each field's problem, all of them at once. */
  | { ok: false; errors: { id?: PartnerIdProblem | "taken"; name?: "missing" | "too_long" | "characters" } };

/**
 * A new partner, active, with nothing else yet: no origins (its API secrets can open no session
 * until it has one), the deployment's partner API key, no agency, no secret, no staff. Its id never
 * changes; the demo partners' ids are reserved (a database holding them refuses production).
 */
export async function createPartner(db: Db, input: { id: string; name: string }, actor: AuditActor): Promise<CreatePartnerResult> {
  const id = checkPartnerId(input.id, DEMO_PARTNER_IDS);
  const name = checkPartnerName(input.name);
  if (!id.ok || !name.ok) return { ok: false, errors: { id: id.ok ? undefined : id.reason, name: name.ok ? undefined : name.reason } };
  const inserted = await db
    .insert(partners)
    .values({ id: id.value, name: name.value, allowedOrigins: [] })
    .onConflictDoNothing({ target: partners.id })
    .returning({ id: partners.id });
  if (inserted.length === 0) return { ok: false, errors: { id: "taken" } };
  forgetPartner(id.value);
  await recordActorAudit(db, actor, { kind: "partner_created", result: "ok", partnerId: id.value, details: {} });
  return { ok: true, id: id.value };
}

export type SettingsProblem =
  | { field: "name"; reason: "missing" | "too_long" | "characters" }
  | { field: "allowedOrigins"; reason: OriginProblem; line?: number }
  | { field: "defaultReturnUrl"; reason: ReturnUrlProblem };

export type UpdateSettingsResult =
  { ok: true; changed: string[] } | { ok: false; problems: SettingsProblem[] } | { ok: false; reason: "not_found" };

/**
 * The partner's name, allowed origins and default return URL, checked together (the return URL must
 * be on one of the origins being saved). Every problem is named by its field; nothing is saved
 * unless all hold. The audit names which settings changed, not their values.
 */
export async function updatePartnerSettings(
  db: Db,
  partnerId: string,
  input: { name: string; allowedOrigins: string; defaultReturnUrl: string },
  actor: AuditActor,
  environment: FinancingEnvironment,
): Promise<UpdateSettingsResult> {
  const partner = await partnerById(db, partnerId);
  if (!partner) return { ok: false, reason: "not_found" };
  const problems: SettingsProblem[] = [];
  const name = checkPartnerName(input.name);
  if (!name.ok) problems.push({ field: "name", reason: name.reason });
  const origins = checkOrigins(input.allowedOrigins, environment);
  if (!origins.ok) problems.push({ field: "allowedOrigins", reason: origins.reason, line: origins.line });
  const returnUrl = checkDefaultReturnUrl(input.defaultReturnUrl, origins.ok ? origins.value : partner.allowedOrigins);
  if (!returnUrl.ok) problems.push({ field: "defaultReturnUrl", reason: returnUrl.reason });
  if (!name.ok || !origins.ok || !returnUrl.ok) return { ok: false, problems };

  const next = { name: name.value, allowedOrigins: origins.value, defaultReturnUrl: returnUrl.value };
  const changed = [
    next.name !== partner.name ? "name" : undefined,
    JSON.stringify(next.allowedOrigins) !== JSON.stringify(partner.allowedOrigins) ? "allowedOrigins" : undefined,
    next.defaultReturnUrl !== partner.defaultReturnUrl ? "defaultReturnUrl" : undefined,
  ].filter((field): field is string => field !== undefined);
  if (changed.length === 0) return { ok: true, changed };
  await db.update(partners).set(next).where(eq(partners.id, partnerId));
  forgetPartner(partnerId);
  await recordActorAudit(db, actor, { kind: "partner_updated", result: "ok", partnerId, details: { changed: changed.join(",") } });
  return { ok: true, changed };
}

/**
 * The retention period of the partner's customers' data, in days, at most `maxDays`
 * (CUSTOMER_DATA_RETENTION_MAX_DAYS): audited as a change of its settings.
 */
export async function setPartnerRetentionDays(
  db: Db,
  partnerId: string,
  raw: string,
  actor: AuditActor,
  maxDays: number,
): Promise<{ ok: true; days: number } | { ok: false; reason: RetentionProblem | "not_found" }> {
  const partner = await partnerById(db, partnerId);
  if (!partner) return { ok: false, reason: "not_found" };
  const checked = checkRetentionDays(raw, maxDays);
  if (!checked.ok) return checked;
  if (checked.value !== partner.customerDataRetentionDays) {
    await db.update(partners).set({ customerDataRetentionDays: checked.value }).where(eq(partners.id, partnerId));
    forgetPartner(partnerId);
    await recordActorAudit(db, actor, {
      kind: "partner_updated",
      result: "ok",
      partnerId,
      details: { changed: "customerDataRetentionDays", days: checked.value },
    });
  }
  return { ok: true, days: checked.value };
}

/**
 * The partner's notification URL, under the same rules as its staff's (lib/checkout/background/notification-url.ts),
 * audited as theirs is (`notification_url_changed`: whether one is set, never the URL).
 */
export async function setPartnerNotificationUrl(
  db: Db,
  partnerId: string,
  raw: string,
  actor: AuditActor,
  environment: FinancingEnvironment,
): Promise<{ ok: true; url: string | null } | { ok: false; reason: string }> {
  if (!(await partnerById(db, partnerId))) return { ok: false, reason: "not_found" };
  const checked = checkNotificationUrl(raw, environment);
  const result = checked.ok ? await setNotificationUrl(db, partnerId, raw, environment) : checked;
  forgetPartner(partnerId);
  await recordActorAudit(db, actor, {
    kind: "notification_url_changed",
    result: result.ok ? "ok" : "refused",
    partnerId,
    details: result.ok ? { set: result.url !== null } : { reason: notificationUrlProblem(result.reason) },
  });
  return result;
}

/**
 * Disables the partner (its API secrets answer 401 at once, its customers' checkouts say the agency
 * is unavailable) or enables it again. Only a change is written and audited.
 */
export async function setPartnerDisabled(
  db: Db,
  partnerId: string,
  disabled: boolean,
  actor: AuditActor,
  now = new Date(),
): Promise<{ ok: true; changed: boolean } | { ok: false; reason: "not_found" }> {
  const updated = await db
    .update(partners)
    .set({ disabledAt: disabled ? now : null })
    .where(and(eq(partners.id, partnerId), disabled ? isNull(partners.disabledAt) : isNotNull(partners.disabledAt)))
    .returning({ id: partners.id });
  if (updated.length === 0) return (await partnerById(db, partnerId)) ? { ok: true, changed: false } : { ok: false, reason: "not_found" };
  forgetPartner(partnerId);
  await recordActorAudit(db, actor, { kind: disabled ? "partner_disabled" : "partner_enabled", result: "ok", partnerId, details: {} }, now);
  return { ok: true, changed: true };
}

/**
 * The agencies whose operations the partner's staff see (`partner_agencies`), replaced by `agencyIds`
 * in one transaction. A removal takes the access away at the next request (nothing is cached).
 */
export async function setPartnerAgencies(
  db: Db,
  partnerId: string,
  agencyIds: readonly number[],
  actor: AuditActor,
): Promise<{ ok: true; added: number[]; removed: number[] } | { ok: false; reason: "not_found" }> {
  if (!(await partnerById(db, partnerId))) return { ok: false, reason: "not_found" };
  const { added, removed } = await db.transaction(async (tx) => {
    const before = (await tx.select().from(partnerAgencies).where(eq(partnerAgencies.partnerId, partnerId))).map((row) => row.agencyId);
    const added = agencyIds.filter((id) => !before.includes(id));
    const removed = before.filter((id) => !agencyIds.includes(id));
    for (const agencyId of removed) {
      await tx.delete(partnerAgencies).where(and(eq(partnerAgencies.partnerId, partnerId), eq(partnerAgencies.agencyId, agencyId)));
    }
    if (added.length > 0) {
      await tx
        .insert(partnerAgencies)
        .values(added.map((agencyId) => ({ partnerId, agencyId })))
        .onConflictDoNothing();
    }
    return { added, removed };
  });
  if (added.length > 0 || removed.length > 0) {
    await recordActorAudit(db, actor, {
      kind: "partner_agencies_changed",
      result: "ok",
      partnerId,
      details: { agencies: [...agencyIds].sort((a, b) => a - b).join(","), added: added.join(","), removed: removed.join(",") },
    });
  }
  return { ok: true, added, removed };
}

export type InviteAdminResult =
  { ok: true; link: string } | { ok: false; reason: "not_found" | "invalid_email" | "invalid_name" | "email_taken" | "disabled" };

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

/**
 * The partner's first administrator: an account and its one-time link (lib/identity/members.ts),
 * which the operator hands over. The link is returned here, once, and kept nowhere in clear.
 */
export async function invitePartnerAdmin(
  db: Db,
  partnerId: string,
  input: { email: string; name: string },
  actor: AuditActor,
): Promise<InviteAdminResult> {
  const partner = await partnerById(db, partnerId);
  if (!partner) return { ok: false, reason: "not_found" };
  if (partner.disabledAt) return { ok: false, reason: "disabled" };
  const email = input.email.trim();
  if (!EMAIL.test(email) || email.length > 254) return { ok: false, reason: "invalid_email" };
  const name = checkPartnerName(input.name);
  if (!name.ok) return { ok: false, reason: "invalid_name" };
  const [taken] = await db
    .select({ id: staffUsers.id })
    .from(staffUsers)
    .where(eq(sql`lower(${staffUsers.email})`, email.toLowerCase()))
    .limit(1);
  if (taken) return { ok: false, reason: "email_taken" };
  // An admin who may refund, with a 48-hour invitation link; its one audit line (`staff_invited`,
  // by the operator) is written there.
  const invited = await createPartnerAdminInvitation(db, partnerId, email, name.value, {
    by: { id: actor.id, name: actor.name },
    ip: actor.ip ?? undefined,
  });
  if (!invited.ok)
    return {
      ok: false,
      reason:
        invited.reason === "email_taken" || invited.reason === "invalid_email" || invited.reason === "invalid_name"
          ? invited.reason
          : "not_found",
    };
  return { ok: true, link: linkUrl(getEnv().APP_URL, invited.link.token, "invitation") };
}
