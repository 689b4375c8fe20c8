import "server-only";
import { z } from "zod";
import type { Db } from "@/lib/db";
import {
  createApiSecret,
  listApiSecrets,
  revokeApiSecret,
  rotateApiSecret,
  type ApiSecretView,
  type CreateSecretResult,
  type RevokeSecretResult,
  type RotateSecretResult,
  type SecretEnvironment,
} from "@/lib/partners/api-secrets";
import { recordActorAudit, type AuditActor } from "@/lib/audit/audit";
import { noticeApiSecretCreated } from "@/lib/identity/account-notices";

/**
 * A partner's checkout sessions API secrets as people manage them: the partner's administrators in
 * the back-office (`/admin/settings/api-secrets`), and platform operators in the console. Every
 * function takes the partner whose secrets they are (the staff member's own, or the one the operator
 * opened) and touches only that partner's: another partner's secret is "not found". Each change is
 * audited with its id and prefix, never the secret, nor the name someone typed.
 */

export type { ApiSecretView };

export function partnerApiSecrets(db: Db, partnerId: string): Promise<ApiSecretView[]> {
  return listApiSecrets(db, partnerId);
}

export async function createPartnerApiSecret(
  db: Db,
  partnerId: string,
  name: string,
  actor: AuditActor,
  environment: SecretEnvironment,
): Promise<CreateSecretResult> {
  const result = await createApiSecret(db, partnerId, name, { kind: actor.kind, id: actor.id, name: actor.name }, environment);
  if (result.ok || result.reason !== "invalid_name") {
    await recordActorAudit(db, actor, {
      kind: "api_secret_created",
      result: result.ok ? "ok" : "refused",
      partnerId,
      details: result.ok ? { secretId: result.view.id, prefix: result.view.prefix } : { reason: result.reason },
    });
  }
  if (result.ok) await noticeApiSecretCreated(db, partnerId, { name: result.view.name, by: actor.name });
  return result;
}

export async function rotatePartnerApiSecret(
  db: Db,
  partnerId: string,
  secretId: string,
  actor: AuditActor,
  environment: SecretEnvironment,
): Promise<RotateSecretResult> {
  const result = await rotateApiSecret(db, partnerId, secretId, { kind: actor.kind, id: actor.id, name: actor.name }, environment);
  await recordActorAudit(db, actor, {
    kind: "api_secret_rotated",
    result: result.ok ? "ok" : "refused",
    partnerId,
    details: result.ok
      ? {
          secretId,
          newSecretId: result.view.id,
          prefix: result.view.prefix,
          previousValidUntil: result.previousValidUntil.toISOString(),
        }
      : { secretId, reason: result.reason },
  });
  return result;
}

export async function revokePartnerApiSecret(db: Db, partnerId: string, secretId: string, actor: AuditActor): Promise<RevokeSecretResult> {
  const result = await revokeApiSecret(db, partnerId, secretId);
  await recordActorAudit(db, actor, {
    kind: "api_secret_revoked",
    result: result.ok ? "ok" : "refused",
    partnerId,
    details: result.ok ? { secretId, prefix: result.view.prefix } : { secretId, reason: result.reason },
  });
  return result;
}

/** A secret's id as forms send it back. */
const secretIdField = z.string().regex(/^sec_[\w-]{1,80}$/, "is not a secret's id");

/** What the API secrets panel's forms post: create one (a name), rotate or revoke one (its id). */
export const apiSecretIntentSchema = z.discriminatedUnion("intent", [
  // Longer than allowed is said on the field, not refused as a malformed form.
  z.object({ intent: z.literal("create"), name: z.string().max(400).default("") }),
  z.object({ intent: z.literal("rotate"), secretId: secretIdField }),
  z.object({ intent: z.literal("revoke"), secretId: secretIdField }),
]);
export type ApiSecretIntent = z.output<typeof apiSecretIntentSchema>;

export type ApiSecretOutcome =
  | { created: { secret: string; name: string; previousValidUntil?: Date } }
  | { revoked: true }
  | { error: "invalid_name" | "too_many" | "not_found" | "not_active" | "already_revoked"; name?: string };

/** One post of the panel, on `partnerId`'s secrets, as `actor`. */
export async function runApiSecretIntent(
  db: Db,
  partnerId: string,
  input: ApiSecretIntent,
  actor: AuditActor,
  environment: SecretEnvironment,
): Promise<ApiSecretOutcome> {
  if (input.intent === "create") {
    const result = await createPartnerApiSecret(db, partnerId, input.name, actor, environment);
    return result.ok
      ? { created: { secret: result.secret, name: result.view.name } }
      : { error: result.reason, name: input.name.slice(0, 60) };
  }
  if (input.intent === "rotate") {
    const result = await rotatePartnerApiSecret(db, partnerId, input.secretId, actor, environment);
    return result.ok
      ? { created: { secret: result.secret, name: result.view.name, previousValidUntil: result.previousValidUntil } }
      : { error: result.reason };
  }
  const result = await revokePartnerApiSecret(db, partnerId, input.secretId, actor);
  return result.ok ? { revoked: true } : { error: result.reason };
}
