import "server-only";
import { getEnv } from "@/lib/config/env";
import { openWith, sealWith } from "@/lib/security/secrets/secret-box";

/**
 * Secrets at rest (partners' API keys and signing secrets; staff TOTP secrets): sealed with
 * AES-256-GCM under the configured SECRETS_KEYS before they are written, opened when they are
 * used. The format and the rules are lib/security/secrets/secret-box.ts's.
 *
 * `context` (optional) is bound to the ciphertext as GCM's additional data, e.g. the column and the
 * row: the same context must be given to open it.
 */

export function sealSecret(plaintext: string, context = ""): string {
  return sealWith(getEnv().SECRETS_KEYS, plaintext, context);
}

/** A value without the `enc:` prefix is legacy plaintext and comes back as it is (startup seals it). */
export function openSecret(stored: string, context = ""): string {
  return openWith(getEnv().SECRETS_KEYS, stored, context);
}
