/**
 * What a new staff password must be: 12 characters or more, and not one of the ~49,000 most common
 * passwords of zxcvbn-ts's "passwords-common" list (@zxcvbn-ts/language-common, built from public
 * breach corpora), compared without case. The list loads on first use, not at start.
 * Pure (no server-only): tests import it directly.
 */

export const PASSWORD_MIN_LENGTH = 12;

let common: Promise<Set<string>> | undefined;

function commonPasswords(): Promise<Set<string>> {
  common ??= import("@zxcvbn-ts/language-common").then(({ dictionary }) => new Set(dictionary["passwords-common"]));
  return common;
}

export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswords()).has(password.normalize("NFC").toLowerCase());
}

export type PasswordProblem = "too_short" | "common";

/** Why a password cannot be set, or undefined when it can. */
export async function passwordProblem(password: string): Promise<PasswordProblem | undefined> {
  if ([...password].length < PASSWORD_MIN_LENGTH) return "too_short";
  if (await isCommonPassword(password)) return "common";
  return undefined;
}
