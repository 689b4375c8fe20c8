import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { partners } from "@/lib/db/schema";
import type { AppEnv } from "@/lib/config/env";
import { createFinancingClient, type FinancingClient } from "@/lib/financing/client";
import { isFinancingApiError } from "@/lib/financing/errors";
import type { Agency } from "@/lib/financing/types";
import { forgetPartner } from "@/lib/partners/cache";
import { openPartnerSecret, keyLast4, sealPartnerSecret } from "@/lib/partners/secrets";
import { openWith, sealWith } from "@/lib/security/secrets/secret-box";
import type { Keyring } from "@/lib/config/keyring";
import { recordActorAudit, type AuditActor } from "@/lib/audit/audit";
import { logError, loggerFor } from "@/lib/logger";

const log = loggerFor("operator");

/**
 * A partner's partner API credential, as an operator sets it: typed once, verified live against the
 * partner API before anything is saved, then sealed at rest (lib/partners/secrets.ts) and never shown
 * again but for its last four characters.
 *
 * - An **agency key** is verified with `GET /health` under it.
 * - A **management group key** with `GET /agencies` (the one call without the agency header): the
 *   agencies it reaches are offered, and the partner's calls act for the one picked. Between the two
 *   steps the key travels only sealed (`pending`), bound to the partner and valid for minutes.
 * - **The deployment's key** (FINANCING_API_KEY): nothing of the partner's own is stored; with a
 *   deployment group key, an agency it reaches is picked the same way.
 *
 * A key the API refuses is refused here with the API's own reason (its status and message).
 */

export type FinancingSettings = AppEnv["financing"];

export interface CredentialDeps {
  financing: FinancingSettings;
  keyring: Keyring;
  /** Tests: the partner API reached in-process. */
  fetch?: typeof fetch;
  now?: Date;
}

export type KeyKind = "agency" | "group";

export type VerifyProblem =
  /** Not a partner API key at all (fk_test_… or fk_live_…). */
  | "malformed"
  /** A sandbox key with the production API, or the reverse: never sent. */
  | "wrong_environment"
  /** The API answered no (401, 403…): `apiReason` says why, in its words. */
  | "refused"
  /** No answer, or a 5xx: nothing can be said of the key; try again. */
  | "unreachable"
  /** A group key whose group has no active agency. */
  | "no_agencies"
  /** The agency picked is not one the key reaches (now). */
  | "agency_not_reached"
  /** The sealed key of the first step is gone stale or was tampered with: type it again. */
  | "pending_expired";

export type VerifyFailure = { ok: false; reason: VerifyProblem; apiReason?: string };

const KEY_SHAPE = /^fk_(test|live)_[\x21-\x7e]{4,200}$/;
/** How long a verified group key waits, sealed, for its agency to be picked. */
export const PENDING_KEY_TTL_MS = 15 * 60_000;

function keyProblem(key: string, environment: FinancingSettings["environment"]): VerifyFailure | undefined {
  if (!KEY_SHAPE.test(key)) return { ok: false, reason: "malformed" };
  const live = key.startsWith("fk_live_");
  if (live !== (environment === "production")) return { ok: false, reason: "wrong_environment" };
  return undefined;
}

function clientWith(deps: CredentialDeps, apiKey: string, agencyId?: number): FinancingClient {
  // The deployment's timeout and retries: both calls are reads, safe to repeat after a lost connection.
  return createFinancingClient({ ...deps.financing, apiKey, agencyId, ...(deps.fetch ? { fetch: deps.fetch } : {}) });
}

/** What the API said, without the endpoint's name in front: `401: Invalid API key`. */
function apiReasonOf(error: unknown): string | undefined {
  if (!isFinancingApiError(error)) return undefined;
  return error.message.replace(/^.*? failed with (HTTP )?/, "");
}

function failureOf(error: unknown): VerifyFailure {
  if (!isFinancingApiError(error)) throw error;
  const refused =
    error.status !== undefined && error.status >= 400 && error.status < 500 && error.status !== 429 && error.kind !== "contract";
  return { ok: false, reason: refused ? "refused" : "unreachable", apiReason: apiReasonOf(error) };
}

/** An agency key: `GET /health` answers under it. */
export async function verifyAgencyKey(key: string, deps: CredentialDeps): Promise<{ ok: true } | VerifyFailure> {
  const problem = keyProblem(key, deps.financing.environment);
  if (problem) return problem;
  try {
    await clientWith(deps, key).health();
    return { ok: true };
  } catch (error) {
    return failureOf(error);
  }
}

/** A group key: the active agencies `GET /agencies` lists under it (at least one). */
export async function verifyGroupKey(key: string, deps: CredentialDeps): Promise<{ ok: true; agencies: Agency[] } | VerifyFailure> {
  const problem = keyProblem(key, deps.financing.environment);
  if (problem) return problem;
  try {
    const agencies = await clientWith(deps, key).listAgencies();
    return agencies.length === 0 ? { ok: false, reason: "no_agencies" } : { ok: true, agencies };
  } catch (error) {
    return failureOf(error);
  }
}

function pendingContext(partnerId: string): string {
  return `operator:pending-group-key:${partnerId}`;
}

/** The verified group key, sealed for the form's next step (never in clear in the page). */
export function sealPendingKey(partnerId: string, key: string, deps: Pick<CredentialDeps, "keyring" | "now">): string {
  const at = (deps.now ?? new Date()).getTime();
  return sealWith(deps.keyring, JSON.stringify({ key, at }), pendingContext(partnerId));
}

function openPendingKey(partnerId: string, pending: string, deps: Pick<CredentialDeps, "keyring" | "now">): string | undefined {
  try {
    const { key, at } = JSON.parse(openWith(deps.keyring, pending, pendingContext(partnerId))) as { key: unknown; at: unknown };
    const age = (deps.now ?? new Date()).getTime() - Number(at);
    if (typeof key !== "string" || !Number.isFinite(age) || age < 0 || age > PENDING_KEY_TTL_MS) return undefined;
    return key;
  } catch {
    return undefined;
  }
}

export type CredentialChoice =
  | { kind: "agency"; key: string }
  /** The first step (no agency yet, or a pending key): the agencies to pick from. */
  | { kind: "group"; key: string; agencyId?: number }
  | { kind: "group_pending"; pending: string; agencyId: number }
  | { kind: "deployment"; agencyId?: number };

export type CredentialResult =
  | { ok: true; saved: true }
  /** A group key verified: pick one of these agencies, sending `pending` back with it. */
  | { ok: true; saved: false; agencies: Agency[]; pending?: string }
  | VerifyFailure
  | { ok: false; reason: "not_found" };

/**
 * Verifies the credential live and, once it holds (a group key with a reached agency picked), saves
 * it and audits the change (`partner_credential_changed`: the kind, the last four, the agency; a
 * refusal with its reason, never the key).
 */
export async function setPartnerCredential(
  db: Db,
  partnerId: string,
  choice: CredentialChoice,
  actor: AuditActor,
  deps: CredentialDeps,
): Promise<CredentialResult> {
  const [partner] = await db.select({ id: partners.id }).from(partners).where(eq(partners.id, partnerId)).limit(1);
  if (!partner) return { ok: false, reason: "not_found" };
  const refused = async (failure: VerifyFailure, kind: string): Promise<VerifyFailure> => {
    await recordActorAudit(db, actor, {
      kind: "partner_credential_changed",
      result: "refused",
      partnerId,
      details: { credential: kind, reason: failure.reason, status: statusOf(failure.apiReason) },
    });
    return failure;
  };

  if (choice.kind === "agency") {
    const verified = await verifyAgencyKey(choice.key, deps);
    if (!verified.ok) return refused(verified, "agency");
    await save(db, partnerId, { key: choice.key, agencyId: null }, deps.keyring);
    await recordActorAudit(db, actor, {
      kind: "partner_credential_changed",
      result: "ok",
      partnerId,
      details: { credential: "agency", last4: keyLast4(choice.key) },
    });
    return { ok: true, saved: true };
  }

  if (choice.kind === "group" || choice.kind === "group_pending") {
    const key = choice.kind === "group" ? choice.key : openPendingKey(partnerId, choice.pending, deps);
    if (key === undefined) return { ok: false, reason: "pending_expired" };
    const verified = await verifyGroupKey(key, deps);
    if (!verified.ok) return refused(verified, "group");
    if (choice.agencyId === undefined)
      return { ok: true, saved: false, agencies: verified.agencies, pending: sealPendingKey(partnerId, key, deps) };
    if (!verified.agencies.some((agency) => agency.id === choice.agencyId))
      return refused({ ok: false, reason: "agency_not_reached" }, "group");
    await save(db, partnerId, { key, agencyId: choice.agencyId }, deps.keyring);
    await recordActorAudit(db, actor, {
      kind: "partner_credential_changed",
      result: "ok",
      partnerId,
      details: { credential: "group", last4: keyLast4(key), agencyId: choice.agencyId },
    });
    return { ok: true, saved: true };
  }

  // The deployment's key: with a group key, one of its agencies, checked with GET /agencies too.
  const deploymentGroup = deps.financing.agencyId !== undefined;
  let agencyId: number | null = null;
  if (deploymentGroup) {
    let agencies: Agency[];
    try {
      agencies = await clientWith(deps, deps.financing.apiKey).listAgencies();
    } catch (error) {
      return refused(failureOf(error), "deployment");
    }
    if (choice.agencyId === undefined) return { ok: true, saved: false, agencies };
    if (!agencies.some((agency) => agency.id === choice.agencyId))
      return refused({ ok: false, reason: "agency_not_reached" }, "deployment");
    agencyId = choice.agencyId;
  }
  await save(db, partnerId, { key: null, agencyId }, deps.keyring);
  await recordActorAudit(db, actor, {
    kind: "partner_credential_changed",
    result: "ok",
    partnerId,
    details: { credential: "deployment", agencyId },
  });
  return { ok: true, saved: true };
}

/** The HTTP status at the start of the API's reason (`401: …`), for the audit: never its text. */
function statusOf(apiReason: string | undefined): number | null {
  const match = apiReason ? /^(\d{3})\b/.exec(apiReason) : null;
  return match ? Number(match[1]) : null;
}

async function save(
  db: Db,
  partnerId: string,
  credential: { key: string | null; agencyId: number | null },
  keyring: Keyring,
): Promise<void> {
  await db
    .update(partners)
    .set({
      financingApiKey: credential.key === null ? null : sealPartnerSecret(partnerId, "financingApiKey", credential.key, keyring),
      financingKeyLast4: credential.key === null ? null : keyLast4(credential.key),
      financingAgencyId: credential.agencyId,
    })
    .where(eq(partners.id, partnerId));
  forgetPartner(partnerId);
}

/** What the console shows of a partner's credential: its kind, the key's last four, the agency. */
export interface CredentialSummary {
  kind: "agency" | "group" | "deployment";
  last4: string | null;
  agencyId: number | null;
}

export function credentialSummary(partner: {
  financingApiKey: string | null;
  financingKeyLast4: string | null;
  financingAgencyId: number | null;
}): CredentialSummary {
  if (partner.financingApiKey === null) return { kind: "deployment", last4: null, agencyId: partner.financingAgencyId };
  return {
    kind: partner.financingAgencyId === null ? "agency" : "group",
    last4: partner.financingKeyLast4,
    agencyId: partner.financingAgencyId,
  };
}

/**
 * The agencies the partner's credential reaches, to help pick the ones its staff see: a group key's
 * (its own or the deployment's) `GET /agencies`; none to list for an agency key. `ok: false`: the
 * API could not be asked now.
 */
export async function reachableAgencies(
  partner: { id: string; financingApiKey: string | null; financingAgencyId: number | null },
  deps: CredentialDeps,
): Promise<{ ok: true; agencies: Agency[] } | { ok: false }> {
  const ownKey = partner.financingApiKey === null ? null : openPartnerSecret(partner, "financingApiKey", deps.keyring);
  const groupKey =
    ownKey !== null
      ? partner.financingAgencyId !== null
        ? ownKey
        : null
      : deps.financing.agencyId !== undefined
        ? deps.financing.apiKey
        : null;
  if (groupKey === null) return { ok: true, agencies: [] };
  try {
    return { ok: true, agencies: await clientWith(deps, groupKey).listAgencies() };
  } catch (error) {
    if (!isFinancingApiError(error)) throw error;
    logError(log, "operator: the agencies of a partner's key could not be listed", error, { partnerId: partner.id });
    return { ok: false };
  }
}
