import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { logError, loggerFor } from "@/lib/logger";

/**
 * Staff passwords, kept only as scrypt hashes (Node's built-in, memory-hard): N=2^17, r=8, p=1
 * (OWASP's minimum for scrypt), a 16-byte random salt, stored as `scrypt$N$r$p$saltB64$hashB64`
 * so the cost can rise while old hashes still verify; an old hash is replaced at the next
 * successful sign-in ({@link needsRehash}). Compared in constant time.
 */

export const PASSWORD_COST = { N: 131_072, r: 8, p: 1 } as const;
const COST = PASSWORD_COST;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/**
 * Node refuses scrypt above `maxmem` (32 MiB by default, less than the 128 MiB that 128·N·r takes
 * at N=2^17, r=8): room for that and a little over; a stored hash asking for more is refused.
 */
const MAX_MEMORY = 256 * 1024 * 1024;

function derive(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFC"), salt, keyLength, { ...options, maxmem: MAX_MEMORY }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, KEY_BYTES, COST);
  return ["scrypt", COST.N, COST.r, COST.p, salt.toString("base64"), hash.toString("base64")].join("$");
}

const STORED = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/;

/** Whether `password` matches the stored hash; a malformed hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const match = STORED.exec(stored);
  if (!match) return false;
  const [N, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // N must be a power of two above 1 for scrypt; anything else is a corrupt row, not a reason to throw.
  if (N < 2 || (N & (N - 1)) !== 0 || r < 1 || p < 1 || r > 32 || p > 16) return false;
  const salt = Buffer.from(match[4]!, "base64");
  const expected = Buffer.from(match[5]!, "base64");
  if (expected.length < 16) return false;
  let actual: Buffer;
  try {
    actual = await derive(password, salt, expected.length, { N, r, p });
  } catch (error) {
    logError(loggerFor("backoffice"), "backoffice: a stored password hash could not be checked", error);
    return false;
  }
  return timingSafeEqual(actual, expected);
}

/** Whether a stored hash is weaker than today's cost, and should be replaced once the password is known. */
export function needsRehash(stored: string): boolean {
  const match = STORED.exec(stored);
  if (!match) return false;
  return Number(match[1]) < COST.N || Number(match[2]) < COST.r || Number(match[3]) < COST.p;
}

let dummy: Promise<string> | undefined;

/**
 * A hash to check against when the e-mail is unknown, so an unknown e-mail costs the same time as
 * a wrong password and the answer's timing does not tell whether the account exists.
 */
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(16).toString("hex"));
  return dummy;
}
