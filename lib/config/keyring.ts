/**
 * The keyring secrets at rest are sealed under (lib/security/secrets/secret-box.ts), as
 * configuration reads it from SECRETS_KEYS: parsed here, below the security code that uses it, so
 * the configuration imports no security code.
 */

const KEY_BYTES = 32;
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

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
