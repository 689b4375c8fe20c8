import "server-only";
import { z } from "zod";
import { isSealed } from "@/lib/security/secrets/secret-box";
import { openSecret, sealSecret } from "@/lib/security/secrets/secrets";
import { CUSTOMER_ERROR_CODES, CUSTOMER_FIELDS, type CustomerDraft, type CustomerErrors } from "./customer";
import type { SubmitFailure } from "./submit";

/**
 * The details form's answer to a post made without JavaScript, carried across a redirect
 * (post/redirect/get): the action answers 303 to the form's page with `?form=sent`, which shows
 * what was typed and each field's error, so Back and reload never ask to send the form again.
 *
 * What was typed is personal data: it never goes in the URL. It rides in a cookie for this
 * session's pages only (`/checkout/{id}`), httpOnly, for minutes, sealed with AES-256-GCM under
 * SECRETS_KEYS and bound to the session (a cookie of one session does not open for another).
 */

export const FORM_ANSWER_COOKIE = "checkout_form_answer";
/** `?form=sent`: the page shows the answer in the cookie. */
export const FORM_ANSWER_PARAM = "form";
export const FORM_ANSWER_VALUE = "sent";
/** Long enough to read the errors, correct and reload; short, since the value is personal data. */
export const FORM_ANSWER_MAX_AGE_SECONDS = 15 * 60;
/** Browsers keep cookies up to 4096 bytes, name and attributes included: past this, the typed values are left out. */
const MAX_SEALED_LENGTH = 3_600;

type Failure = SubmitFailure | "invalid";
// Every failure the action can answer (a new one fails the type check here until it is listed).
const FAILURE_SET: Record<Failure, true> = {
  unavailable: true,
  expired: true,
  closed: true,
  not_editor: true,
  too_many_corrections: true,
  agency_unavailable: true,
  erased: true,
  invalid: true,
};
const FAILURES = Object.keys(FAILURE_SET) as [Failure, ...Failure[]];

export interface FormAnswer {
  submission: number;
  draft?: CustomerDraft;
  errors?: CustomerErrors;
  failure?: Failure;
}

const field = z.enum(CUSTOMER_FIELDS);
const answerSchema = z.object({
  submission: z.number().int().nonnegative(),
  draft: z.partialRecord(field, z.string()).optional(),
  errors: z.partialRecord(field, z.enum(CUSTOMER_ERROR_CODES)).optional(),
  failure: z.enum(FAILURES).optional(),
});

const context = (sessionId: string) => `checkout-form-answer:${sessionId}`;

/** The answer sealed for the cookie; without the typed values when they would make it too long for one. */
export function sealFormAnswer(sessionId: string, answer: FormAnswer): string {
  const sealed = sealSecret(JSON.stringify(answer), context(sessionId));
  if (sealed.length <= MAX_SEALED_LENGTH || answer.draft === undefined) return sealed;
  const { draft: _draft, ...withoutDraft } = answer;
  return sealSecret(JSON.stringify(withoutDraft), context(sessionId));
}

/** The answer in a cookie, when it opens for this session and reads as one; anything else is no answer. */
export function openFormAnswer(sessionId: string, sealed: string | undefined): FormAnswer | undefined {
  // Only what this server sealed: openSecret takes a value without the prefix as plaintext.
  if (sealed === undefined || !isSealed(sealed)) return undefined;
  try {
    const parsed = answerSchema.safeParse(JSON.parse(openSecret(sealed, context(sessionId))));
    return parsed.success ? parsed.data : undefined;
  } catch {
    // Another session's, another key's, or altered: ignored.
    return undefined;
  }
}
