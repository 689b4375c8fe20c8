import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import type { Keyring, SecretKey } from "@/lib/config/keyring";

/**
 * Values the app hands out and must get back unaltered (a list's cursor): `<payload>.<mac>`, the MAC
 * an HMAC-SHA256 (16 bytes) of the payload and of what it is bound to (the partner it was given
 * to), under a key derived from SECRETS_KEYS for its purpose. The first key signs; every key of the
 * ring verifies, so a rotation does not void the values in use. Signed, not sealed: the payload is
 * readable. Pure, given the ring.
 */

const MAC_BYTES = 16;

/** Each ring key's derived key per purpose, derived once. */
const derived = new WeakMap<SecretKey, Map<string, Buffer>>();

function keyFor(key: SecretKey, purpose: string): Buffer {
  let byPurpose = derived.get(key);
  if (!byPurpose) derived.set(key, (byPurpose = new Map()));
  let found = byPurpose.get(purpose);
  if (!found) {
    found = Buffer.from(hkdfSync("sha256", key.key, Buffer.alloc(0), `signed token v1: ${purpose}`, 32));
    byPurpose.set(purpose, found);
  }
  return found;
}

function mac(key: SecretKey, purpose: string, payload: string, binding: string): Buffer {
  return createHmac("sha256", keyFor(key, purpose))
    .update(JSON.stringify([payload, binding]), "utf8")
    .digest()
    .subarray(0, MAC_BYTES);
}

/** `payload` (base64url characters only) signed for `purpose`, bound to `binding`. */
export function signToken(keyring: Keyring, purpose: string, payload: string, binding: string): string {
  return `${payload}.${mac(keyring[0], purpose, payload, binding).toString("base64url")}`;
}

/** The payload of a token signed by one of the ring's keys for this purpose and binding; undefined for anything else. */
export function openToken(keyring: Keyring, purpose: string, token: string, binding: string): string | undefined {
  const dot = token.lastIndexOf(".");
  if (dot <= 0) return undefined;
  const payload = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), "base64url");
  if (given.length !== MAC_BYTES || given.toString("base64url") !== token.slice(dot + 1)) return undefined;
  return keyring.some((key) => timingSafeEqual(mac(key, purpose, payload, binding), given)) ? payload : undefined;
}
