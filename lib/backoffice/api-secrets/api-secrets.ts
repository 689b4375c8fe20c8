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
import { can, type Permission, type PermissionHolder } from "@/lib/identity/permissions";
import { API_SCOPES, type ApiScope, type SecretScope } from "@/lib/vocabulary/api-scopes";

/**
 * A partner's checkout sessions API secrets as people manage them: the partner's administrators in
 * the back-office (`/admin/settings/api-secrets`), and platform operators in the console. Every
 * function takes the partner whose secrets they are (the staff member's own, or the one the operator
 * opened) and touches only that partner's: another partner's secret is "not found". Each change is
 * audited with its id, prefix and scopes, never the secret, nor the name someone typed.
 *
 * A secret can do through the API what its scopes say, so giving a scope is doing it: a staff member
 * gives `sessions:refund` only with the refund permission, and `sessions:erase` only with the
 * data-requests one, as in the back-office (`all`, both). An operator, who sets partners up, may give
 * any. The same holds for a rotation, which keeps the secret's scopes.
 */

export type { ApiSecretView };

/** Who creates or rotates a secret: an operator, or a staff member with their permissions. */
export type SecretActor = (AuditActor & { kind: "operator" }) | (AuditActor & { kind: "staff"; permissions: PermissionHolder });

/** The back-office permission a staff member needs to give a scope (none: every admin may). */
const SCOPE_PERMISSION: Partial<Record<ApiScope, Permission>> = { "sessions:refund": "refund", "sessions:erase": "data-requests" };

/** Whether `actor` may give a secret every one of `scopes` (`all` stands for every scope). */
export function mayGiveScopes(actor: SecretActor, scopes: readonly SecretScope[]): boolean {
  if (actor.kind === "operator") return true;
  const each = scopes.includes("all") ? API_SCOPES : (scopes as readonly ApiScope[]);
  return each.every((scope) => {
    const permission = SCOPE_PERMISSION[scope];
    return permission === undefined || can(actor.permissions, permission);
  });
}

function author(actor: SecretActor) {
  return { kind: actor.kind, id: actor.id, name: actor.name };
}

function auditActor({ kind, id, name, ip }: SecretActor): AuditActor {
  return { kind, id, name, ip };
}

export function partnerApiSecrets(db: Db, partnerId: string): Promise<ApiSecretView[]> {
  return listApiSecrets(db, partnerId);
}

export async function createPartnerApiSecret(
  db: Db,
  partnerId: string,
  name: string,
  scopes: readonly string[],
  actor: SecretActor,
  environment: SecretEnvironment,
): Promise<CreateSecretResult> {
  const result = await createApiSecret(db, partnerId, name, scopes, author(actor), environment, (held) => mayGiveScopes(actor, held));
  if (result.ok || (result.reason !== "invalid_name" && result.reason !== "invalid_scopes")) {
    await recordActorAudit(db, auditActor(actor), {
      kind: "api_secret_created",
      result: result.ok ? "ok" : "refused",
      partnerId,
      details: result.ok
        ? { secretId: result.view.id, prefix: result.view.prefix, scopes: result.view.scopes.join(" ") }
        : { reason: result.reason, scopes: scopes.join(" ").slice(0, 200) },
    });
  }
  if (result.ok) await noticeApiSecretCreated(db, partnerId, { name: result.view.name, by: actor.name });
  return result;
}

export async function rotatePartnerApiSecret(
  db: Db,
  partnerId: string,
  secretId: string,
  actor: SecretActor,
  environment: SecretEnvironment,
): Promise<RotateSecretResult> {
  const result = await rotateApiSecret(db, partnerId, secretId, author(actor), environment, (held) => mayGiveScopes(actor, held));
  await recordActorAudit(db, auditActor(actor), {
    kind: "api_secret_rotated",
    result: result.ok ? "ok" : "refused",
    partnerId,
    details: result.ok
      ? {
          secretId,
          newSecretId: result.view.id,
          prefix: result.view.prefix,
          scopes: result.view.scopes.join(" "),
          previousValidUntil: result.previousValidUntil.toISOString(),
        }
      : { secretId, reason: result.reason },
  });
  // A rotation makes a new working secret too: the partner's admins hear of it as of a creation.
  if (result.ok) await noticeApiSecretCreated(db, partnerId, { name: result.view.name, by: actor.name });
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

/** A scope's checkbox in the panel's form: one field each (`scope:sessions:read`), sent when ticked. */
export function scopeFieldName(scope: ApiScope): `scope:${ApiScope}` {
  return `scope:${scope}`;
}

const scopeFields = Object.fromEntries(API_SCOPES.map((scope) => [scopeFieldName(scope), z.literal("on").optional()])) as Record<
  `scope:${ApiScope}`,
  z.ZodOptional<z.ZodLiteral<"on">>
>;

/** The scopes ticked in a create form. */
function tickedScopes(input: Partial<Record<`scope:${ApiScope}`, "on">>): ApiScope[] {
  return API_SCOPES.filter((scope) => input[scopeFieldName(scope)] === "on");
}

/** What the API secrets panel's forms post: create one (a name, its scopes), rotate or revoke one (its id). */
export const apiSecretIntentSchema = z.discriminatedUnion("intent", [
  // Longer than allowed is said on the field, not refused as a malformed form; no scope is said there too.
  z.object({ intent: z.literal("create"), name: z.string().max(400).default(""), ...scopeFields }),
  z.object({ intent: z.literal("rotate"), secretId: secretIdField }),
  z.object({ intent: z.literal("revoke"), secretId: secretIdField }),
]);
export type ApiSecretIntent = z.output<typeof apiSecretIntentSchema>;

export type ApiSecretOutcome =
  | { created: { secret: string; name: string; previousValidUntil?: Date } }
  | { revoked: true }
  | {
      error: "invalid_name" | "invalid_scopes" | "scope_not_allowed" | "too_many" | "not_found" | "not_active" | "already_revoked";
      name?: string;
      scopes?: ApiScope[];
    };

/** One post of the panel, on `partnerId`'s secrets, as `actor`. */
export async function runApiSecretIntent(
  db: Db,
  partnerId: string,
  input: ApiSecretIntent,
  actor: SecretActor,
  environment: SecretEnvironment,
): Promise<ApiSecretOutcome> {
  if (input.intent === "create") {
    const scopes = tickedScopes(input);
    const result = await createPartnerApiSecret(db, partnerId, input.name, scopes, actor, environment);
    return result.ok
      ? { created: { secret: result.secret, name: result.view.name } }
      : { error: result.reason, name: input.name.slice(0, 60), scopes };
  }
  if (input.intent === "rotate") {
    const result = await rotatePartnerApiSecret(db, partnerId, input.secretId, actor, environment);
    return result.ok
      ? { created: { secret: result.secret, name: result.view.name, previousValidUntil: result.previousValidUntil } }
      : { error: result.reason };
  }
  const result = await revokePartnerApiSecret(db, partnerId, input.secretId, auditActor(actor));
  return result.ok ? { revoked: true } : { error: result.reason };
}
