import type { Metadata } from "next";
import { CheckoutShell } from "@/components/checkout/checkout-shell";
import { OfferCard } from "@/components/checkout/offer-card";
import { RepresentativeExample } from "@/components/checkout/representative-example";
import { LinkButton } from "@/components/ui/link-button";
import { Notice } from "@/components/ui/notice";
import { bookingTotalCents } from "@/lib/checkout/booking";
import { loadOffers, returnUrlFor } from "@/lib/checkout/flow";
import { representativeExample } from "@/lib/financing/offers";
import { embedFields } from "@/lib/embed/context";
import type { FinancialOffer } from "@/lib/financing/types";
import { formatAmount } from "@/lib/i18n/format";
import { chooseOfferAction } from "../actions";
import { checkoutMetadata, loadCheckout, type CheckoutPageProps } from "../load-checkout";
import { inRequestScope } from "@/lib/http/request-scope";

/**
 * Step 3 (design.md §3): the plans the customer can choose, read from the partner API on every
 * render, with the representative example credit law asks for. A refusal with alternatives is
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

/** Plans grouped by their number of installments, in the order sortOffers gave. */
function groupByInstallments(offers: readonly FinancialOffer[]): { installments: number; offers: FinancialOffer[] }[] {
  const groups: { installments: number; offers: FinancialOffer[] }[] = [];
  for (const offer of offers) {
    const last = groups.at(-1);
    if (last && last.installments === offer.installments) last.offers.push(offer);
    else groups.push({ installments: offer.installments, offers: [offer] });
  }
  return groups;
}

export default async function OffersPage(props: CheckoutPageProps) {
  const page = await loadCheckout(props, "offers", (state, session) =>
    state === "open" || !session.operationId ? "details" : state !== "choosing" ? "status" : undefined,
  );
  const { ctx, session, query, state, embed, locale, m, partnerName } = page;
  const notice = noticeOf(query.notice);
  const refused = session.financingStatus === "REFUSED" && session.hasAlternatives === true;
  // With the request id on its log lines and sent upstream.
  const view = await inRequestScope(() => loadOffers(ctx, session));
  const cashPrice = { cents: bookingTotalCents(session.booking), currency: session.booking.totalPrice.currency };
  const backToPartner = (
    <div>
      <LinkButton href={returnUrlFor(session, state)} external target={embed ? "_top" : undefined}>
        {m.common.payAnotherWay(partnerName)}
      </LinkButton>
    </div>
  );

  let content: React.ReactNode;
  if (view.kind === "not_eligible" || view.kind === "none") {
    content = (
      <>
        <h1 className="text-3xl font-bold">{view.kind === "none" ? m.offers.noneTitle : m.offers.notEligibleTitle}</h1>
        <p>{view.kind === "none" ? m.offers.noneBody : m.offers.notEligibleBody}</p>
        {backToPartner}
      </>
    );
  } else if (view.kind === "unavailable") {
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
    const example = representativeExample(view.offers, cashPrice);
    content = (
      <>
        <div className="flex flex-col gap-3">
          <h1 className="text-3xl font-bold">{m.offers.title}</h1>
          {refused ? (
            <Notice tone="error" live>
              {m.offers.refusedNotice}
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
          <p>{m.offers.intro(formatAmount(cashPrice, locale))}</p>
          <p className="rounded-md border-2 border-warning bg-warning-soft px-3 py-2 font-bold">{m.offers.warning}</p>
        </div>
        {groupByInstallments(view.offers).map((group) => (
          <section key={group.installments} aria-labelledby={`group-${group.installments}`} className="flex flex-col gap-3">
            <h2 id={`group-${group.installments}`} className="text-xl font-bold">
              {m.offers.groupHeading(group.installments)}
            </h2>
            <ul className="flex flex-col gap-3">
              {group.offers.map((offer) => (
                <li key={offer.id}>
                  <OfferCard
                    offer={offer}
                    sessionId={session.id}
                    action={chooseOfferAction}
                    locale={locale}
                    messages={m}
                    hiddenFields={embedFields(embed)}
                  />
                </li>
              ))}
            </ul>
          </section>
        ))}
        {example ? (
          <RepresentativeExample
            example={example}
            offer={view.offers.find((offer) => offer.id === example.offerId)}
            locale={locale}
            messages={m}
          />
        ) : null}
      </>
    );
  }

  return (
    <CheckoutShell page={page} step={2} bridge={{ step: "offers", state, final: false }}>
      {content}
    </CheckoutShell>
  );
}
