/**
 * What a partner's API secret may do on the checkout sessions API: its scopes, chosen when it is
 * created and kept by its rotations. A request outside them answers 403 `insufficient_scope`
 * naming the scope it needs (lib/checkout/api/sessions-api.ts).
 *
 * - `sessions:read`: read sessions, a refund's breakdown, and the event feed;
 * - `sessions:open`: open sessions;
 * - `sessions:cancel`: cancel sessions;
 * - `sessions:refund`: refund sessions (money back);
 * - `sessions:erase`: erase a session's customer data, its own scope: it cannot be undone, and in
 *   the back-office it needs the data-requests grant, which cancelling does not.
 *
 * `all` is what secrets made before scopes existed hold: every scope, today's and any added later.
 * It is never chosen for a new secret. Pure: the panel's client component lists the scopes too.
 */
export const API_SCOPES = ["sessions:read", "sessions:open", "sessions:cancel", "sessions:refund", "sessions:erase"] as const;
export type ApiScope = (typeof API_SCOPES)[number];
export const ALL_SCOPES = "all";
/** What a secret holds: some scopes, or `all`. */
export type SecretScope = ApiScope | typeof ALL_SCOPES;

export function isApiScope(value: string): value is ApiScope {
  return (API_SCOPES as readonly string[]).includes(value);
}

export function isSecretScope(value: string): value is SecretScope {
  return value === ALL_SCOPES || isApiScope(value);
}

/** Whether a secret holding `held` may do what needs `needed`. */
export function allows(held: readonly SecretScope[], needed: ApiScope): boolean {
  return held.includes(ALL_SCOPES) || held.includes(needed);
}

/** The scopes as stored and listed: each once, in API_SCOPES's order; `all` alone when held. */
export function normalizedScopes(scopes: readonly string[]): SecretScope[] {
  if (scopes.includes(ALL_SCOPES)) return [ALL_SCOPES];
  return API_SCOPES.filter((scope) => scopes.includes(scope));
}
