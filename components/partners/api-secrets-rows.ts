import type { ApiSecretOutcome, ApiSecretView } from "@/lib/backoffice/api-secrets/api-secrets";
import { formatDateTime } from "@/lib/backoffice/common/format";
import type { Locale } from "@/lib/i18n/locales";
import type { ApiSecretRow, ApiSecretsState } from "./api-secrets-state";

/*
 * The server's side of the API secrets panel: what its actions answer and what its pages list,
 * with dates in the page's language (the client component formats nothing).
 */

/** A panel post's outcome (lib/backoffice/api-secrets) as the panel's state, its date in the page's language. */
export function apiSecretsState(outcome: ApiSecretOutcome | { error: "invalid" }, locale: Locale): Omit<ApiSecretsState, "submission"> {
  if ("created" in outcome) {
    const { previousValidUntil, ...created } = outcome.created;
    return {
      created: { ...created, previousValidUntil: previousValidUntil ? formatDateTime(previousValidUntil, locale) : undefined },
    };
  }
  if ("revoked" in outcome) return { revoked: true };
  return {
    error: outcome.error,
    name: "name" in outcome ? outcome.name : undefined,
    scopes: "scopes" in outcome ? outcome.scopes : undefined,
  };
}

/** The secrets as the panel lists them, dates formatted for `locale`. */
export function apiSecretRows(secrets: readonly ApiSecretView[], locale: Locale): ApiSecretRow[] {
  return secrets.map((secret) => ({
    id: secret.id,
    name: secret.name,
    prefix: secret.prefix,
    scopes: secret.scopes,
    state: secret.state,
    created: formatDateTime(secret.createdAt, locale),
    createdBy: secret.createdByName,
    lastUsed: secret.lastUsedAt ? formatDateTime(secret.lastUsedAt, locale) : null,
    until: secret.state === "rotating" && secret.expiresAt ? formatDateTime(secret.expiresAt, locale) : null,
  }));
}
