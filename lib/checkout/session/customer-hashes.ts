import { createHmac, hkdfSync } from "node:crypto";
import type { SecretKey } from "@/lib/config/keyring";

/**
 * The keyed hashes a customer's document number and e-mail are searched by (customer-sealing.ts
 * writes and searches them): pure, given a key of the ring, so a test can tell which row a customer
 * is stored in without the data.
 */

const HASH_LABEL = "checkout customer_data search hash v1";

/** A document number as searched: upper-case, without spaces or dashes ("12 345-678 z" is "12345678Z"). */
export function normaliseDocumentNumber(value: string): string {
  return value.replace(/[\s-]+/g, "").toUpperCase();
}

/** An e-mail address as searched: trimmed, lower-case. */
export function normaliseEmail(value: string): string {
  return value.trim().toLowerCase();
}

/** Each ring key's derived hash key, derived once: every write and search hashes with it. */
const hashKeys = new WeakMap<SecretKey, Buffer>();

function hashKey(key: SecretKey): Buffer {
  let derived = hashKeys.get(key);
  if (!derived) {
    derived = Buffer.from(hkdfSync("sha256", key.key, Buffer.alloc(0), HASH_LABEL, 32));
    hashKeys.set(key, derived);
  }
  return derived;
}

function keyedHash(key: SecretKey, kind: "document" | "email", normalised: string): string {
  return createHmac("sha256", hashKey(key)).update(`${kind}:${normalised}`, "utf8").digest("base64url");
}

type Normalise = (value: string) => string;
const NORMALISE: Record<"document" | "email", Normalise> = { document: normaliseDocumentNumber, email: normaliseEmail };

/** The keyed hash of a normalised value under `key`; null for a blank one. */
export function customerSearchHash(key: SecretKey, kind: "document" | "email", value: string | undefined): string | null {
  const normalised = value === undefined ? "" : NORMALISE[kind](value);
  return normalised === "" ? null : keyedHash(key, kind, normalised);
}
