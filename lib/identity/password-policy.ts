import type { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { verifyPassword } from "./passwords";

/**
 * What a new staff password must be: 12 characters or more, not one of the ~49,000 most common
 * passwords of zxcvbn-ts's "passwords-common" list (@zxcvbn-ts/language-common, built from public
 * breach corpora, compared without case), and hard to guess for someone who knows its owner:
 * zxcvbn-ts's estimate (@zxcvbn-ts/core) with the owner's name, e-mail, agency's name and previous
 * password as dictionary words must reach a score of 3 ("safely unguessable": 10^8 guesses or more),
 * both as typed and with its separators taken out (so "Viajes-Aurora-2026" counts as
 * "ViajesAurora2026"). Repeats ("aaaaaaaaaaaa", "123123123123"), sequences and keyboard rows
 * ("qwertyuiopasdf") score below that whatever their length. The lists load on first use, not at
 * start. Pure apart from scrypt (no server-only): tests import it directly.
 */

export const PASSWORD_MIN_LENGTH = 12;
/** zxcvbn's score (0–4) a new password must reach. */
export const PASSWORD_MIN_SCORE = 3;

let common: Promise<Set<string>> | undefined;
let estimator: Promise<ZxcvbnFactory> | undefined;

function commonPasswords(): Promise<Set<string>> {
  common ??= import("@zxcvbn-ts/language-common").then(({ dictionary }) => new Set(dictionary["passwords-common"]));
  return common;
}

function zxcvbn(): Promise<ZxcvbnFactory> {
  estimator ??= Promise.all([import("@zxcvbn-ts/core"), import("@zxcvbn-ts/language-common")]).then(
    ([{ ZxcvbnFactory }, { dictionary, adjacencyGraphs }]) => new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs }),
  );
  return estimator;
}

export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswords()).has(password.normalize("NFC").toLowerCase());
}

/** What is known of the password's owner: each becomes dictionary words of the estimate. */
export interface PasswordOwner {
  name?: string;
  email?: string;
  /** The agency's name (the platform's for an operator). */
  organisation?: string;
  /** The password being replaced, when it was typed (a change). */
  previous?: string;
}

/** Lower case, without accents or separators: "Lucía Pérez" and "lucia-perez" read the same. */
function plain(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}

/**
 * The owner's words: each input whole, and every run of its parts joined ("viajes", "aurora",
 * "viajesaurora"), so a name is recognised however it is glued together.
 */
export function ownerWords(owner: PasswordOwner): string[] {
  const words = new Set<string>();
  for (const input of [owner.name, owner.email, owner.organisation, owner.previous]) {
    if (!input) continue;
    const text = plain(input).slice(0, 200);
    words.add(text);
    const parts = text
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean)
      .slice(0, 8);
    for (let from = 0; from < parts.length; from++) {
      for (let to = from + 1; to <= parts.length; to++) {
        const word = parts.slice(from, to).join("");
        if (word.length >= 3) words.add(word);
      }
    }
  }
  return [...words];
}

export type PasswordProblem = "too_short" | "common" | "weak";

/** Why a password cannot be set, or undefined when it can. */
export async function passwordProblem(password: string, owner: PasswordOwner = {}): Promise<PasswordProblem | undefined> {
  if ([...password].length < PASSWORD_MIN_LENGTH) return "too_short";
  if (await isCommonPassword(password)) return "common";
  const estimate = await zxcvbn();
  const words = ownerWords(owner);
  const typed = password.normalize("NFC");
  const joined = plain(typed).replace(/[^\p{L}\p{N}]+/gu, "");
  for (const candidate of new Set([typed, joined])) {
    if (estimate.check(candidate, words).score < PASSWORD_MIN_SCORE) return "weak";
  }
  return undefined;
}

/**
 * Whether a new password is the stored one, or the stored one with one or two characters added at
 * its end ("…42" → "…422", "…42!"): for a reset or a new enrolment, where the previous password
 * was not typed and only its hash is known. Up to three scrypt checks.
 */
export async function reusesPrevious(password: string, storedHash: string | null): Promise<boolean> {
  if (!storedHash) return false;
  const chars = [...password];
  for (let cut = 0; cut <= 2 && chars.length - cut >= PASSWORD_MIN_LENGTH - 2; cut++) {
    if (await verifyPassword(chars.slice(0, chars.length - cut).join(""), storedHash)) return true;
  }
  return false;
}
