import type { SecretState } from "@/lib/partners/api-secrets";
import type { ApiScope, SecretScope } from "@/lib/vocabulary/api-scopes";

/*
 * The API secrets panel's state, shared by its server actions (the operator console's and the
 * back-office's) and its client component: apart from both ("use server" files export functions
 * only), so the client bundle pulls no server code.
 */

export type ApiSecretError =
  "invalid_name" | "invalid_scopes" | "scope_not_allowed" | "too_many" | "not_found" | "not_active" | "already_revoked" | "invalid";

export interface ApiSecretsState {
  submission: number;
  /** A secret just created or rotated in: its plaintext, shown this once. */
  created?: { secret: string; name: string; previousValidUntil?: string };
  revoked?: boolean;
  error?: ApiSecretError;
  /** The name typed and the scopes ticked, kept on an error. */
  name?: string;
  scopes?: ApiScope[];
}

export const INITIAL_API_SECRETS_STATE: ApiSecretsState = { submission: 0 };

/** A secret as the panel lists it, its dates already formatted on the server. */
export interface ApiSecretRow {
  id: string;
  name: string;
  prefix: string;
  scopes: SecretScope[];
  state: SecretState;
  created: string;
  createdBy: string | null;
  lastUsed: string | null;
  /** For a rotated secret: until when it still works. */
  until: string | null;
}
