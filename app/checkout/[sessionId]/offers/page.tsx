import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { CheckoutShell } from "@/components/checkout/checkout-shell";
import { MarkDetailsSent } from "@/components/checkout/details-freshness";
import { InstallmentChoiceNav } from "@/components/checkout/installment-choice";
import { PlanComparison } from "@/components/checkout/plan-comparison";
import { RepresentativeExample } from "@/components/checkout/representative-example";
import { LinkButton } from "@/components/ui/link-button";
import { Notice } from "@/components/ui/notice";
import { TextLink } from "@/components/ui/text-link";
import { bookingTotalCents } from "@/lib/checkout/session/booking";
import { loadOffers, showsOffers } from "@/lib/checkout/session/flow";
import { defaultInstallments, installmentChoices, plansFor, representativeExample } from "@/lib/financing/offers";
import { embedFields, embedHref } from "@/lib/embed/context";
import { formatAmount } from "@/lib/i18n/format";
import { chooseOfferAction } from "../actions";
import { checkoutMetadata, loadCheckout, type CheckoutPageProps, type LoadedCheckout } from "../load-checkout";
import { inRequestScope } from "@/lib/http/request-scope";
import { preloadedOffers } from "@/lib/checkout/session/page-preload";

/**
 * Step 3 (docs/contributors/architecture.md, "The checkout as data moves"): the plans the customer can choose, read from the partner API on every
 * render, installments first: the counts on offer (`?n=` picks one; 12, or the nearest, by
 * default), then that count's plans side by side, with the warning above and that count's
 * representative example credit law asks for right below, within two screens of a phone. A refusal with alternatives is
 * read from the session in the database, never from the URL.
 */

/** Notices another step can ask for in the URL: words to show, nothing to trust. */
const NOTICES = ["offer_gone", "unavailable"] as const;
type NoticeKind = (typeof NOTICES)[number];

function noticeOf(value: unknown): NoticeKind | undefined {
  return NOTICES.find((notice) => notice === value);
}

export async function generateMetadata(props: CheckoutPageProps): Promise<Metadata> {
  return checkoutMetadata(props, "offersTitle");
}

/** `?n=` as an installment count, when it is one. */
function requestedCount(value: unknown): number | undefined {
  return typeof value === "string" && /^\d{1,3}$/.test(value) ? Number(value) : undefined;
}

export default async function OffersPage(props: CheckoutPageProps) {
  const page = await loadCheckout(props, "offers", (state, session) =>
    showsOffers(session) ? undefined : state === "open" || !session.operationId ? "details" : "status",
  );
  // The shell first, the plans as its async child: React renders the shell (header, theme,
  // progress) while the partner API is answering, and only the plans after. The document is still
  // sent whole, in order, once the plans are in (no Suspense boundary: it reads without JavaScript).
  return (
    <CheckoutShell page={page} step={2} bridge={{ step: "offers", state: page.state, final: false }}>
      {/* The data is sent: a details page rendered before now is stale (details-freshness.tsx). */}
      <MarkDetailsSent sessionId={page.session.id} renderedAt={page.renderedAt} />
      <OffersContent page={page} />
    </CheckoutShell>
  );
}

/** What the partner API's answer decides: the plans, or why there are none. */
async function OffersContent({ page }: { page: LoadedCheckout }) {
  const { ctx, session, query, embed, locale, m } = page;
  const notice = noticeOf(query.notice);
  // The plan chosen was refused, or failed (a technical error), and the partner API has alternatives.
  const noticeOfFailure = { REFUSED: m.offers.refusedNotice, ERROR: m.offers.failedNotice } as const;
  const alternativesNotice =
    session.hasAlternatives === true && (session.financingStatus === "REFUSED" || session.financingStatus === "ERROR")
      ? noticeOfFailure[session.financingStatus]
      : undefined;
  // Asked for as the request arrived (lib/checkout/session/page-preload.ts), or now; with the
  // request id on its log lines and sent upstream.
  const view = (await preloadedOffers(session.id)) ?? (await inRequestScope(() => loadOffers(ctx, session, page.partner)));
  const cashPrice = { cents: bookingTotalCents(session.booking), currency: session.booking.totalPrice.currency };

  // No plan can ever be had (not eligible, or not one offer): loadOffers ended the session
  // `not_eligible`, a final outcome the status page words, with the way back to the agency (whose
  // link says that outcome), as it does for every final outcome.
  if (view.kind === "not_eligible" || view.kind === "none") redirect(page.href("status"));

  let content: React.ReactNode;
  if (view.kind === "unavailable") {
    content = (
      <>
        <h1 className="text-3xl font-bold">{m.offers.unavailableTitle}</h1>
        <p>{m.offers.unavailableBody}</p>
        <div>
          <LinkButton href={page.href("offers")}>{m.common.tryAgain}</LinkButton>
        </div>
      </>
    );
  } else {
    const choices = installmentChoices(view.offers);
    // Never undefined here: "offers" has at least one plan.
    const selected = defaultInstallments(choices, requestedCount(query.n)) ?? choices[0]!.installments;
    const plans = plansFor(view.offers, selected);
    // The example of the count the customer is looking at, not of another term.
    const example = representativeExample(plans, cashPrice);
    content = (
      <>
        <div className="flex flex-col gap-3">
          <h1 className="text-3xl font-bold">{m.offers.title}</h1>
          {alternativesNotice ? (
            <Notice tone="error" live>
              {alternativesNotice}
            </Notice>
          ) : null}
          {notice === "offer_gone" ? (
            <Notice tone="warning" live>
              {m.offers.offerGoneNotice}
            </Notice>
          ) : null}
          {notice === "unavailable" ? (
            <Notice tone="error" live>
              {m.offers.unavailableNotice}
            </Notice>
          ) : null}
          <p>
            {m.offers.intro(formatAmount(cashPrice, locale))}{" "}
            <TextLink href={embedHref(`/checkout/${session.id}`, embed, { edit: "1" })}>{m.offers.editDetails}</TextLink>
          </p>
          <p className="rounded-md border-2 border-warning bg-warning-soft px-3 py-2 font-bold">{m.offers.warning}</p>
        </div>
        <InstallmentChoiceNav
          choices={choices}
          selected={selected}
          hrefFor={(n) => embedHref(page.path, embed, { n: String(n) })}
          locale={locale}
          messages={m}
        />
        <PlanComparison
          installments={selected}
          plans={plans}
          sessionId={session.id}
          action={chooseOfferAction}
          locale={locale}
          messages={m}
          hiddenFields={embedFields(embed)}
        />
        {example ? (
          <RepresentativeExample
            example={example}
            offer={plans.find((offer) => offer.id === example.offerId)}
            locale={locale}
            messages={m}
          />
        ) : null}
      </>
    );
  }

  return content;
}
