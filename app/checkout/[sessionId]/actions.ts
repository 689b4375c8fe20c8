"use server";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { CustomerFormState } from "@/components/checkout/customer-form-state";
import { AppError } from "@/lib/app-error";
import { draftFromForm, type CustomerDraft, type CustomerErrors } from "@/lib/checkout/session/customer";
import { CUSTOMER_TEXT_MAX, customerFormFields, isCustomerField } from "@/lib/checkout/session/customer-form";
import { getAppContext } from "@/lib/app-context";
import { EDITOR_COOKIE, newEditorToken } from "@/lib/checkout/session/customer-editor";
import { setEditorCookie, setSessionCookie } from "@/lib/checkout/session/session-cookies";
import {
  FORM_ANSWER_COOKIE,
  FORM_ANSWER_MAX_AGE_SECONDS,
  FORM_ANSWER_PARAM,
  FORM_ANSWER_VALUE,
  sealFormAnswer,
} from "@/lib/checkout/session/form-answer";
import { chooseOffer, type ChooseResult } from "@/lib/checkout/session/flow";
import { submitCustomer } from "@/lib/checkout/session/submit";
import { CHECKOUT_SESSION_ID, isCheckoutSessionId } from "@/lib/http/checkout-session-id";
import { EMBED_LANG_PARAM, EMBED_PARAM, embedFromForm, embedHref, HANDOFF_PARAM, type EmbedContext } from "@/lib/embed/context";
import { formAction, formOf, validatedAction, type FormAnswer } from "@/lib/validated-action";

/*
 * The checkout's server actions. Each validates its form with zod through validatedAction, calls
 * the domain (lib/checkout/session/flow.ts), and redirects after any try/catch. Customer data is never
 * logged here, and never put in a URL: it travels in the POST body and back in the action state.
 *
 * In the embedded checkout the forms also send the embedded mode (hidden `embed` and `lang`), so
 * that where an action leads stays in the mode; the page there checks it against the partner.
 */

function embedOf(formData: FormData): EmbedContext | undefined {
  return embedFromForm(formData.get(EMBED_PARAM), formData.get(EMBED_LANG_PARAM));
}

const sessionId = z.string().regex(CHECKOUT_SESSION_ID, "is not a checkout session");

const customerFormSchema = customerFormFields.extend({
  sessionId,
  // The correction form (`?edit=1`): where a post without JavaScript is answered.
  edit: z.literal("1").optional(),
});

type SubmitOutcome = { ok: true; sessionId: string } | { ok: false; sessionId: string; state: FormAnswer<CustomerFormState> };

const submitCustomerValidated = validatedAction(
  customerFormSchema,
  async ({ sessionId: id, edit: _edit, ...fields }, formData): Promise<SubmitOutcome> => {
    const draft: CustomerDraft = fields;
    const ctx = await getAppContext();
    // This browser's token (its cookie), or a new one: the data is bound to it once stored.
    const held = (await cookies()).get(EDITOR_COOKIE)?.value;
    const token = held ?? newEditorToken();
    let result: Awaited<ReturnType<typeof submitCustomer>>;
    try {
      result = await submitCustomer(ctx, id, draft, token);
    } catch (error) {
      if (error instanceof AppError && error.code === "not_found") return { ok: false, sessionId: id, state: { draft, failure: "closed" } };
      throw error;
    }
    // Stored (sent on, or kept for a retry when the partner API failed): this browser keeps the token.
    const stored = result.ok || ("failure" in result && result.failure === "unavailable");
    if (!held && stored) await setEditorCookie(id, token, embedOf(formData) !== undefined);
    if (result.ok) return { ok: true, sessionId: id };
    return "errors" in result
      ? { ok: false, sessionId: id, state: { draft: result.draft, errors: result.errors } }
      : { ok: false, sessionId: id, state: { draft: result.draft, failure: result.failure } };
  },
);

/**
 * The customer form's action (through useActionState): stores the data and creates the operation,
 * then goes to the offers; otherwise answers with each field's error for the form to show.
 */
export const submitCustomerForm = formAction<CustomerFormState>()(submitCustomerValidated, {
  invalid: async (issues, formData, { submission }) => {
    // Only a tampered or oversized post gets here: name the fields it can, keep what was typed.
    const errors: CustomerErrors = {};
    for (const issue of issues) if (isCustomerField(issue.field)) errors[issue.field] = "too_long";
    const draft = Object.fromEntries(
      Object.entries(draftFromForm(formData)).map(([key, value]) => [key, value.slice(0, CUSTOMER_TEXT_MAX)]),
    );
    const answer: CustomerFormState =
      Object.keys(errors).length > 0 ? { submission, draft, errors } : { submission, draft, failure: "invalid" };
    // A hostile post may carry no form at all (the action's arguments are the client's): formData is then empty.
    const id = formData.get("sessionId");
    if ((await withoutJavaScript()) && typeof id === "string" && isCheckoutSessionId(id)) await answerAfterRedirect(id, answer, formData);
    return answer;
  },
  valid: async (outcome, formData, { submission }) => {
    if (!outcome.ok) {
      // The partner was disabled meanwhile: its page says so (nothing was stored).
      if (outcome.state.failure === "agency_unavailable")
        redirect(embedHref(`/checkout/${outcome.sessionId}/unavailable`, embedOf(formData)));
      // Without JavaScript the answer is this page rendered again, which sends a payment that can no
      // longer change on to its status with a 307, and the browser would post the form there too
      // ("Server Action unavailable"). The status page it belongs on, then, with a plain GET.
      if (outcome.state.failure === "closed" && (await withoutJavaScript())) {
        redirect(embedHref(`/checkout/${outcome.sessionId}/status`, embedOf(formData)));
      }
      const answer = { submission, ...outcome.state };
      if (await withoutJavaScript()) await answerAfterRedirect(outcome.sessionId, answer, formData);
      return answer;
    }
    // Sent: an answer kept for a page with errors has nothing more to show.
    if ((await cookies()).has(FORM_ANSWER_COOKIE)) {
      await setSessionCookie(FORM_ANSWER_COOKIE, outcome.sessionId, "", embedOf(formData) !== undefined, 0);
    }
    redirect(embedHref(`/checkout/${outcome.sessionId}/offers`, embedOf(formData)));
  },
});

/** With JavaScript, React posts the action itself (Next-Action header) and shows the state it answers. */
async function withoutJavaScript(): Promise<boolean> {
  return !(await headers()).has("next-action");
}

/**
 * Without JavaScript, a post answered with a page stays in the history as a post: Back (or reload)
 * then asks to send the form again. So the answer goes in a cookie (sealed: what was typed is
 * personal data, never in the URL; lib/checkout/session/form-answer.ts) and the browser is sent,
 * with a 303, to the form's page asking for it (`?form=sent`): a GET, which Back and reload repeat
 * as a GET.
 */
async function answerAfterRedirect(sessionId: string, answer: CustomerFormState, formData: FormData): Promise<never> {
  const embed = embedOf(formData);
  await setSessionCookie(
    FORM_ANSWER_COOKIE,
    sessionId,
    sealFormAnswer(sessionId, answer),
    embed !== undefined,
    FORM_ANSWER_MAX_AGE_SECONDS,
  );
  const query: Record<string, string> = formData.get("edit") === "1" ? { edit: "1" } : {};
  query[FORM_ANSWER_PARAM] = FORM_ANSWER_VALUE;
  redirect(embedHref(`/checkout/${sessionId}`, embed, query));
}

// ---------------------------------------------------------------------------------------------

const chooseOfferSchema = z.object({ sessionId, offerId: z.coerce.number().int().positive() });

type ChooseOutcome = ChooseResult | { kind: "not_found" } | { kind: "no_operation" };

const chooseOfferValidated = validatedAction(chooseOfferSchema, async ({ sessionId: id, offerId }) => {
  const ctx = await getAppContext();
  let result: ChooseOutcome;
  try {
    result = await chooseOffer(ctx, id, offerId);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.code === "not_found") result = { kind: "not_found" };
    else if (error.code === "conflict") result = { kind: "no_operation" };
    else throw error;
  }
  return { ok: true as const, sessionId: id, result };
});

/** Where each outcome of choosing a plan takes the customer (docs/contributors/architecture.md, "The checkout as data moves"). */
function destination(id: string, result: ChooseOutcome, embed: EmbedContext | undefined): string {
  const at = (path: string) => embedHref(path, embed);
  const offers = at(`/checkout/${id}/offers`);
  const status = at(`/checkout/${id}/status`);
  switch (result.kind) {
    case "redirect":
      // The provider's paymentUrl (absolute), or our status page when the operation moved on.
      if (!embed) return result.url;
      // A redirect would open the provider's checkout inside the partner's frame (where it refuses
      // to be shown): the status page hands the customer over at the top level instead.
      return result.url.startsWith("/") ? at(result.url) : embedHref(`/checkout/${id}/status`, embed, { [HANDOFF_PARAM]: "1" });
    case "refused":
    case "error":
      // With alternatives, the offers again: the page reads the refusal or the failure from the
      // session, never from the URL.
      return result.hasAlternatives ? offers : status;
    case "in_progress":
      return status;
    case "offer_gone":
      return at(`/checkout/${id}/offers?notice=offer_gone`);
    case "unavailable":
      return at(`/checkout/${id}/offers?notice=unavailable`);
    case "agency_unavailable":
      return at(`/checkout/${id}/unavailable`);
    case "no_operation":
      return at(`/checkout/${id}`);
    case "not_found":
      return at(`/checkout/${id}`);
  }
}

/** A plan's "Choose" form: starts financing with it, then sends the customer where it leads. */
export async function chooseOfferAction(formData: FormData): Promise<void> {
  const outcome = await chooseOfferValidated(undefined, formData);
  if (!outcome.ok) {
    // A malformed post: back to the offers when the session id is usable, else to the start.
    const form = formOf(formData);
    const id = form.get("sessionId");
    redirect(
      typeof id === "string" && isCheckoutSessionId(id) ? embedHref(`/checkout/${id}/offers?notice=offer_gone`, embedOf(form)) : "/",
    );
  }
  redirect(destination(outcome.sessionId, outcome.result, embedOf(formData)));
}
