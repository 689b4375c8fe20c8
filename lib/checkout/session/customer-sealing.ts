import "server-only";
import { createHmac, hkdfSync } from "node:crypto";
import type { Keyring, SecretKey } from "@/lib/config/keyring";
import { getEnv } from "@/lib/config/env";
import { openWith, sealWith } from "@/lib/security/secrets/secret-box";
import type { StoredCustomerDraft } from "@/lib/vocabulary/customer";

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

const HASH_LABEL = "checkout customer_data search hash v1";

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

/** A document number as searched: upper-case, without spaces or dashes ("12 345-678 z" is "12345678Z"). */
export function normaliseDocumentNumber(value: string): string {
  return value.replace(/[\s-]+/g, "").toUpperCase();
}

/** An e-mail address as searched: trimmed, lower-case. */
export function normaliseEmail(value: string): string {
  return value.trim().toLowerCase();
}

function hashKey(key: SecretKey): Buffer {
  return Buffer.from(hkdfSync("sha256", key.key, Buffer.alloc(0), HASH_LABEL, 32));
}

function keyedHash(key: SecretKey, kind: "document" | "email", normalised: string): string {
  return createHmac("sha256", hashKey(key)).update(`${kind}:${normalised}`, "utf8").digest("base64url");
}

type Normalise = (value: string) => string;
const NORMALISE: Record<"document" | "email", Normalise> = { document: normaliseDocumentNumber, email: normaliseEmail };

function hashOf(key: SecretKey, kind: "document" | "email", value: string | undefined): string | null {
  const normalised = value === undefined ? "" : NORMALISE[kind](value);
  return normalised === "" ? null : keyedHash(key, kind, normalised);
}

/** The hashes a draft is stored with, under the ring's first key; null for a field it lacks. */
export function customerHashes(draft: StoredCustomerDraft, keyring?: Keyring): { documentHash: string | null; emailHash: string | null } {
  const key = ringOf(keyring)[0];
  return { documentHash: hashOf(key, "document", draft.documentId), emailHash: hashOf(key, "email", draft.email) };
}

/** What a searched value's hash may be stored as: its hash under each key of the ring (empty for a blank value). */
export function searchHashes(kind: "document" | "email", value: string, keyring?: Keyring): string[] {
  return ringOf(keyring)
    .map((key) => hashOf(key, kind, value))
    .filter((hash): hash is string => hash !== null);
}
