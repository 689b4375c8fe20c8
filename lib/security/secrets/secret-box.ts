import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { Keyring } from "@/lib/config/keyring";

/**
 * Secrets at rest, the pure half: AES-256-GCM under a keyring passed in (lib/security/secrets/secrets.ts
 * passes the configured one; tests pass their own). A sealed value names the key that sealed it,
 * so keys can rotate: the first key of the ring seals, every key opens.
 *
 *   enc:v1:<keyId>:<iv, base64url>:<ciphertext + 16-byte tag, base64url>
 *
 * The additional authenticated data is the version, the key id and an optional context (the
 * column and the row a value belongs to): a ciphertext copied to another row, or relabelled with
 * another key id, fails to open instead of passing for that row's secret.
 */

export const SEALED_PREFIX = "enc:v1:";
const IV_BYTES = 12;
const TAG_BYTES = 16;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

export function isSealed(stored: string): boolean {
  return stored.startsWith(SEALED_PREFIX);
}

/** The id of the key a sealed value names; undefined for legacy plaintext. */
export function sealedKeyId(stored: string): string | undefined {
  if (!isSealed(stored)) return undefined;
  return stored.slice(SEALED_PREFIX.length).split(":", 1)[0];
}

/** Whether a stored value should be sealed again: plaintext, or sealed under a key that no longer seals. */
export function needsReseal(keyring: Keyring, stored: string): boolean {
  return sealedKeyId(stored) !== keyring[0].id;
}

function aad(keyId: string, context: string): Buffer {
  return Buffer.from(`${SEALED_PREFIX}${keyId}:${context}`, "utf8");
}

export function sealWith(keyring: Keyring, plaintext: string, context = ""): string {
  const { id, key } = keyring[0];
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad(id, context));
  const sealed = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `${SEALED_PREFIX}${id}:${iv.toString("base64url")}:${sealed.toString("base64url")}`;
}

export class SecretOpenError extends Error {
  override name = "SecretOpenError";
}

/**
 * The plaintext of a stored value. A value without the prefix is legacy plaintext, returned as it
 * is (startup seals it). A sealed value that does not open (unknown key id, wrong key, altered
 * bytes, another context) throws: a secret is never guessed at.
 */
export function openWith(keyring: Keyring, stored: string, context = ""): string {
  if (!isSealed(stored)) return stored;
  const parts = stored.slice(SEALED_PREFIX.length).split(":");
  const [keyId, ivPart, bodyPart] = parts;
  if (parts.length !== 3 || !keyId || !ivPart || !bodyPart || !BASE64URL.test(ivPart) || !BASE64URL.test(bodyPart)) {
    throw new SecretOpenError("a sealed secret is malformed");
  }
  const entry = keyring.find((key) => key.id === keyId);
  if (!entry) throw new SecretOpenError(`a secret is sealed under the key "${keyId}", which SECRETS_KEYS does not list`);
  const iv = Buffer.from(ivPart, "base64url");
  const body = Buffer.from(bodyPart, "base64url");
  if (iv.length !== IV_BYTES || body.length < TAG_BYTES) throw new SecretOpenError("a sealed secret is malformed");
  try {
    const decipher = createDecipheriv("aes-256-gcm", entry.key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad(keyId, context));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretOpenError(`a secret sealed under the key "${keyId}" does not open: wrong key, or altered`);
  }
}
