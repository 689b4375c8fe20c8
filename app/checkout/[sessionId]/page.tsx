import type { Metadata } from "next";
import { BookingSummary } from "@/components/checkout/booking-summary";
import { CheckoutShell } from "@/components/checkout/checkout-shell";
import { CustomerForm } from "@/components/checkout/customer-form";
import { LinkButton } from "@/components/ui/link-button";
import { Notice } from "@/components/ui/notice";
import { countryList } from "@/lib/checkout/session/countries";
import { cookies } from "next/headers";
import { guessDocumentType } from "@/lib/checkout/session/customer";
import { EDITOR_COOKIE, isEditor, MAX_CORRECTIONS, maskedDraft, PREFILL_MASKED_FIELDS } from "@/lib/checkout/session/customer-editor";
import { getCustomerDraft } from "@/lib/checkout/session/customer-store";
import { returnUrlFor } from "@/lib/checkout/session/flow";
import { FORM_ANSWER_COOKIE, FORM_ANSWER_PARAM, FORM_ANSWER_VALUE, openFormAnswer } from "@/lib/checkout/session/form-answer";
import { embedFields, embedHref } from "@/lib/embed/context";
import { submitCustomerForm } from "./actions";
import { checkoutMetadata, loadCheckout, type CheckoutPageProps } from "./load-checkout";

/**
 * Step 2 of the flow (docs/contributors/architecture.md, "The checkout as data moves"): the booking, then the customer's data. A session that is
 * past this step sends the customer on (offers, or the status page).
 *
 * In the partner's colours (its theme), and, inside the partner's page (`?embed=<its origin>`),
 * in embedded mode: links keep the mode, and EmbedBridge tells the page where the customer is.
 */

export async function generateMetadata(props: CheckoutPageProps): Promise<Metadata> {
  return checkoutMetadata(props, "customerTitle");
}

export default async function CustomerPage(props: CheckoutPageProps) {
  // `?edit=1` (the offers page's "Correct my details"): the form again while the plans are shown;
  // a correction replaces the operation (lib/checkout/session/flow.ts, submitCustomer).
  const searchParams = await props.searchParams;
  const editing = searchParams.edit === "1";
  const page = await loadCheckout(props, "details", (state) => {
    if (state === "open" || state === "expired") return undefined;
    if (state === "choosing") return editing ? undefined : "offers";
    // Asked for the correction form once a plan is chosen: the page says why it cannot be (below).
    return editing ? undefined : "status";
  });
  const { ctx, session, state, embed, locale, m, partnerName, path } = page;
  const correcting = state === "choosing";
  if (state !== "open" && state !== "expired" && !correcting) {
    // The details are locked: said here, with the way to the status (the step the partner's page is told).
    return (
      <CheckoutShell page={page} step={undefined} bridge={{ step: "status", state, final: false }}>
        <h1 className="text-3xl font-bold">{m.form.lockedTitle}</h1>
        <Notice tone="info">{m.form.lockedBody}</Notice>
        <div>
          <LinkButton href={page.href("status")}>{m.form.failures.closedLink}</LinkButton>
        </div>
      </CheckoutShell>
    );
  }
  // The partner's prefill, its identity data masked; once the customer sent their data, only the
  // browser that sent it sees it again, masked (lib/checkout/session/customer-editor.ts): the link
  // alone never shows a document number, birth date, phone or address in full.
  const found = state === "open" || correcting ? await getCustomerDraft(ctx.db, session.id) : undefined;
  if (found?.status === "erased" || found?.status === "unavailable") {
    // Erased, or sealed under no key the server holds: said so, with no form over it.
    const erased = found.status === "erased";
    return (
      <CheckoutShell page={page} step={1} bridge={{ step: "details", state, final: false }}>
        <h1 className="text-3xl font-bold">{erased ? m.form.erasedTitle : m.form.unreadableTitle}</h1>
        <Notice tone="info">{erased ? m.form.erasedBody : m.form.unreadableBody}</Notice>
      </CheckoutShell>
    );
  }
  const stored = found;
  const sent = stored?.submitted === true;
  const editor = sent && isEditor((await cookies()).get(EDITOR_COOKIE)?.value, stored.editorTokenHash);
  if (sent && (!editor || (correcting && stored.corrections >= MAX_CORRECTIONS))) {
    return (
      <CheckoutShell page={page} step={1} bridge={{ step: "details", state, final: false }}>
        <h1 className="text-3xl font-bold">{editor ? m.form.correctionsUsedTitle : m.form.sentTitle}</h1>
        <Notice tone="info">{editor ? m.form.correctionsUsedBody : m.form.sentBody}</Notice>
        {correcting ? (
          <div>
            <LinkButton href={page.href("offers")}>{m.form.sentLink}</LinkButton>
          </div>
        ) : null}
      </CheckoutShell>
    );
  }
  // A post without JavaScript answered with a redirect here (`?form=sent`): its answer, from the cookie.
  const answer =
    searchParams[FORM_ANSWER_PARAM] === FORM_ANSWER_VALUE
      ? openFormAnswer(session.id, (await cookies()).get(FORM_ANSWER_COOKIE)?.value)
      : undefined;
  const { shown: prefill, masks } = sent
    ? maskedDraft(stored.draft)
    : stored
      ? maskedDraft(stored.draft, PREFILL_MASKED_FIELDS)
      : { shown: {}, masks: {} };

  return (
    <CheckoutShell page={page} step={1} bridge={{ step: "details", state, final: state === "expired" }}>
      {state === "expired" ? (
        <>
          {/* A payment link staff revoked expires at once (lib/backoffice/payment-links/payment-links.ts): said as such. */}
          <h1 className="text-3xl font-bold">{session.revokedAt ? m.form.revokedTitle : m.form.expiredTitle}</h1>
          <Notice tone="warning">{session.revokedAt ? m.form.revokedBody : m.form.expiredBody}</Notice>
          <div>
            <LinkButton href={returnUrlFor(session, state)} external target={embed ? "_top" : undefined}>
              {m.common.payAnotherWay(partnerName)}
            </LinkButton>
          </div>
        </>
      ) : (
        <>
          <div className="flex flex-col gap-2">
            <h1 className="text-3xl font-bold">{m.form.title}</h1>
            <p className="text-muted">{m.form.intro}</p>
          </div>
          {correcting ? <Notice tone="info">{m.form.correctionNotice}</Notice> : null}
          {sent ? (
            <Notice tone="info">{m.form.maskedNotice}</Notice>
          ) : Object.keys(masks).length > 0 ? (
            <Notice tone="info">{m.form.prefillMaskedNotice}</Notice>
          ) : null}
          <CustomerForm
            // A new render from the server is a new form: its fields take the values it brings
            // (the router may reuse this instance, where a radio keeps the check it had).
            key={page.renderedAt}
            action={submitCustomerForm}
            sessionId={session.id}
            // `?edit=1` also when asked for and the session is open again: a correction whose new
            // operation could not be created leaves it open, and a post without JavaScript lands on
            // this page, where React keeps the action's state (its failure notice) only for the same permalink.
            permalink={embedHref(path, embed, correcting || editing ? { edit: "1" } : {})}
            prefill={prefill}
            // Most customers are Spanish: with no number yet, DNI (guessDocumentType would say passport).
            documentType={stored?.draft.documentId ? guessDocumentType(stored.draft.documentId) : "DNI"}
            countries={countryList(locale)}
            text={m.form}
            today={ctx.today()}
            statusHref={page.href("status")}
            hiddenFields={{ ...embedFields(embed), ...(correcting || editing ? { edit: "1" } : {}) }}
            // Back from the plans, a copy of this page from before the data was sent asks for this one.
            renderedAt={page.renderedAt}
            correctionHref={embedHref(path, embed, { edit: "1" })}
            masks={masks}
            answer={answer}
          >
            <BookingSummary booking={session.booking} locale={locale} messages={m} />
          </CustomerForm>
        </>
      )}
    </CheckoutShell>
  );
}
