import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

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
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

export interface SecretKey {
  id: string;
  key: Buffer;
}

/** The keys, the sealing one first. Never logged, never put in an error message. */
export type Keyring = readonly [SecretKey, ...SecretKey[]];

/**
 * The sandbox's key when SECRETS_KEYS is not set: published here, so it protects nothing. It only
 * lets a sandbox or a development machine run with no configuration; production refuses to start
 * without SECRETS_KEYS, and refuses this key as its sealing key (lib/config/env.ts).
 */
export const SANDBOX_SECRETS_KEY_ID = "sandbox";
export const SANDBOX_SECRETS_KEY_BASE64 = "c2FuZGJveC1vbmx5LXB1Ymxpc2hlZC1kZXYta2V5ISE=";

export function sandboxKeyring(): Keyring {
  return [{ id: SANDBOX_SECRETS_KEY_ID, key: Buffer.from(SANDBOX_SECRETS_KEY_BASE64, "base64") }];
}

export class KeyringError extends Error {
  override name = "KeyringError";
}

/**
 * `k2:<base64 of 32 bytes>,k1:<base64 of 32 bytes>`: ids of letters, digits, `-` and `_`, each
 * once. The messages name the entry by its position or id, never the key.
 */
export function parseKeyring(value: string): Keyring {
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new KeyringError("must list at least one key as <id>:<base64 of 32 bytes>");
  const keys: SecretKey[] = [];
  entries.forEach((entry, index) => {
    const colon = entry.indexOf(":");
    const id = colon === -1 ? "" : entry.slice(0, colon);
    const encoded = colon === -1 ? "" : entry.slice(colon + 1);
    if (!KEY_ID.test(id)) {
      throw new KeyringError(`entry ${index + 1} must be <id>:<base64 of 32 bytes>, the id of 1 to 32 letters, digits, - or _`);
    }
    if (keys.some((key) => key.id === id)) throw new KeyringError(`the key id "${id}" is listed twice`);
    const key = decodeKey(encoded);
    if (!key) throw new KeyringError(`the key "${id}" must be 32 bytes in base64 (openssl rand -base64 32)`);
    keys.push({ id, key });
  });
  return keys as unknown as Keyring;
}

/** Standard or URL-safe base64 of exactly 32 bytes; anything else (a typo, a short key) is refused. */
function decodeKey(encoded: string): Buffer | undefined {
  const normalised = encoded.replace(/-/g, "+").replace(/_/g, "/");
  if (!/^[A-Za-z0-9+/]{43}=?$/.test(normalised)) return undefined;
  const key = Buffer.from(normalised, "base64");
  return key.length === KEY_BYTES ? key : undefined;
}

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
