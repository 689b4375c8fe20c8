import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { CheckoutHeader } from "@/components/checkout/checkout-header";
import { LinkButton } from "@/components/ui/link-button";
import { Notice } from "@/components/ui/notice";
import { OfferCard } from "@/components/checkout/offer-card";
import { RepresentativeExample } from "@/components/checkout/representative-example";
import { EmbedBridge } from "@/components/embed/embed-bridge";
import { PartnerTheme } from "@/components/theme/partner-theme";
import { bookingTotalCents } from "@/lib/checkout/booking";
import { getCheckoutContext, loadOffers, returnUrlFor } from "@/lib/checkout/flow";
import { representativeExample } from "@/lib/checkout/offers";
import { partnerById } from "@/lib/checkout/partners";
import { getSession, sessionState } from "@/lib/checkout/sessions";
import { embedContext, embedFields, embedHref, embedLocaleHint } from "@/lib/embed/context";
import type { FinancialOffer } from "@/lib/financing/types";
import { formatAmount } from "@/lib/i18n/format";
import { getLocale, getMessages } from "@/lib/i18n/server";
import { partnerTheme } from "@/lib/theme/store";
import { chooseOfferAction } from "../actions";

/**
 * Step 3 (design.md §3): the plans the customer can choose, read from the partner API on every
 * render, with the representative example credit law asks for. A refusal with alternatives is
 * read from the session in the database, never from the URL.
 */

type Props = {
  params: Promise<{ sessionId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** Notices another step can ask for in the URL: words to show, nothing to trust. */
const NOTICES = ["offer_gone", "unavailable"] as const;
type NoticeKind = (typeof NOTICES)[number];

function noticeOf(value: unknown): NoticeKind | undefined {
  return NOTICES.find((notice) => notice === value);
}

const loadSession = cache(async (sessionId: string) => {
  const ctx = await getCheckoutContext();
  return { ctx, session: await getSession(ctx.db, sessionId) };
});

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const { session } = await loadSession((await params).sessionId);
  const m = getMessages(embedLocaleHint(await searchParams) ?? (await getLocale(session?.locale)));
  return { title: m.meta.offersTitle, robots: { index: false, follow: false } };
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

export default async function OffersPage({ params, searchParams }: Props) {
  const { sessionId } = await params;
  const { ctx, session } = await loadSession(sessionId);
  if (!session) notFound();

  const query = await searchParams;
  const partner = await partnerById(ctx.db, session.partnerId);
  const embed = partner ? embedContext(query, partner.allowedOrigins) : undefined;
  const state = sessionState(session);
  if (state === "open" || !session.operationId) redirect(embedHref(`/checkout/${session.id}`, embed));
  if (state !== "choosing") redirect(embedHref(`/checkout/${session.id}/status`, embed));

  const locale = embed?.locale ?? (await getLocale(session.locale));
  const m = getMessages(locale);
  const theme = partner ? partnerTheme(partner) : undefined;
  const partnerName = partner?.name ?? "";
  const path = `/checkout/${session.id}/offers`;
  const notice = noticeOf(query.notice);
  const refused = session.financingStatus === "REFUSED" && session.hasAlternatives === true;
  const view = await loadOffers(ctx, session);
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
          <LinkButton href={embedHref(path, embed)}>{m.common.tryAgain}</LinkButton>
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
    <div lang={locale}>
      {partner ? <PartnerTheme partnerId={partner.id} theme={theme} /> : null}
      {embed ? <EmbedBridge parentOrigin={embed.parentOrigin} sessionId={session.id} step="offers" state={state} final={false} /> : null}
      <CheckoutHeader partnerName={partnerName} logoUrl={theme?.logoUrl} locale={locale} messages={m} returnTo={path} step={2} embed={embed} />
      <main id="main" tabIndex={-1} className="mx-auto flex max-w-2xl flex-col gap-6 px-4 py-6 sm:py-10">
        {content}
      </main>
    </div>
  );
}
