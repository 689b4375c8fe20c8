import "server-only";
import type { Keyring } from "@/lib/config/keyring";
import { getEnv } from "@/lib/config/env";
import { openWith, sealWith } from "@/lib/security/secrets/secret-box";
import type { StoredCustomerDraft } from "@/lib/vocabulary/customer";
import { customerSearchHash } from "./customer-hashes";

export { normaliseDocumentNumber, normaliseEmail } from "./customer-hashes";

/**
 * The customer's data at rest (`customer_data`), the crypto half: its JSON sealed under SECRETS_KEYS
 * (AES-256-GCM, lib/security/secrets/secret-box.ts) bound to the session id, so a sealed value
 * copied onto another session's row does not open there; and the keyed hashes its document number
 * and e-mail are searched by. The database half is customer-store.ts, the only reader of the column.
 *
 * The search hashes are HMAC-SHA-256 under a key derived (HKDF-SHA-256, a fixed label) from a key
 * of the ring: written under the first key, searched under every key of the ring. A rotation (a new
 * key first) therefore still finds the rows written under the old key while it stays listed, and the
 * re-seal (customer-store.ts, at start and by `npm run admin -- reseal-secrets`), which opens each
 * row sealed under an older key anyway, writes its hashes again under the new first key, with its
 * data: once every row is re-sealed, the old key can go without losing a row to search.
 */

function ringOf(keyring: Keyring | undefined): Keyring {
  return keyring ?? getEnv().SECRETS_KEYS;
}

function context(sessionId: string): string {
  return `customer_data.data:${sessionId}`;
}

export function sealCustomerDraft(sessionId: string, draft: StoredCustomerDraft, keyring?: Keyring): string {
  return sealWith(ringOf(keyring), JSON.stringify(draft), context(sessionId));
}

/**
 * The draft a stored value holds. Throws SecretOpenError when no key of the ring opens it (or it
 * was sealed for another session), SyntaxError when what it holds is not JSON (never written so).
 * A value without the `enc:` prefix is a row stored before sealing: its JSON as it is.
 */
export function openCustomerDraft(sessionId: string, stored: string, keyring?: Keyring): StoredCustomerDraft {
  const parsed: unknown = JSON.parse(openWith(ringOf(keyring), stored, context(sessionId)));
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new SyntaxError("not a customer draft");
  return parsed as StoredCustomerDraft;
}

/** The hashes a draft is stored with, under the ring's first key; null for a field it lacks. */
export function customerHashes(draft: StoredCustomerDraft, keyring?: Keyring): { documentHash: string | null; emailHash: string | null } {
  const key = ringOf(keyring)[0];
  return { documentHash: customerSearchHash(key, "document", draft.documentId), emailHash: customerSearchHash(key, "email", draft.email) };
}

/** What a searched value's hash may be stored as: its hash under each key of the ring (empty for a blank value). */
export function searchHashes(kind: "document" | "email", value: string, keyring?: Keyring): string[] {
  return ringOf(keyring)
    .map((key) => customerSearchHash(key, kind, value))
    .filter((hash): hash is string => hash !== null);
}
