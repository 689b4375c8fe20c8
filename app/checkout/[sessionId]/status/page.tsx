import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { BookingSummary } from "@/components/checkout/booking-summary";
import { CheckoutHeader } from "@/components/checkout/checkout-header";
import { LinkButton } from "@/components/checkout/link-button";
import { Notice } from "@/components/checkout/notice";
import { StatusPoller } from "@/components/checkout/status-poller";
import { getCheckoutContext, pollStatus } from "@/lib/checkout/flow";
import { partnerById } from "@/lib/checkout/partners";
import { getSession, type SessionState } from "@/lib/checkout/sessions";
import { getLocale, getMessages } from "@/lib/i18n/server";

/**
 * Step 5 (design.md §3): what happened, in words, and what comes next. Rendering asks the partner
 * API for the status (pollStatus), so a reload (the "Check again" link, without JavaScript) shows
 * the latest; with JavaScript, StatusPoller refreshes the page when the state changes.
 */

type Props = { params: Promise<{ sessionId: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const ctx = await getCheckoutContext();
  const session = await getSession(ctx.db, (await params).sessionId);
  const m = getMessages(await getLocale(session?.locale));
  return { title: m.meta.statusTitle, robots: { index: false, follow: false } };
}

const TONE: Record<SessionState, "info" | "success" | "warning" | "error"> = {
  open: "info",
  choosing: "info",
  pending: "info",
  approved: "success",
  confirmed: "success",
  refused: "error",
  error: "error",
  cancelled: "warning",
  expired: "warning",
  refunded: "info",
};

/** Where the customer is in the three steps; past them all once the outcome is known. */
const STEP: Record<SessionState, number> = {
  open: 1,
  choosing: 2,
  pending: 3,
  approved: 4,
  confirmed: 4,
  refused: 4,
  error: 4,
  cancelled: 4,
  expired: 4,
  refunded: 4,
};

export default async function StatusPage({ params }: Props) {
  const { sessionId } = await params;
  const ctx = await getCheckoutContext();
  const session = await getSession(ctx.db, sessionId);
  if (!session) notFound();

  const view = await pollStatus(ctx, session.id);
  const locale = await getLocale(session.locale);
  const m = getMessages(locale);
  const partnerName = (await partnerById(ctx.db, session.partnerId))?.name ?? "";
  const path = `/checkout/${session.id}/status`;
  const text = m.status.states[view.state];
  const success = view.state === "approved" || view.state === "confirmed";

  let next: React.ReactNode;
  switch (view.state) {
    case "open":
      next = <LinkButton href={`/checkout/${session.id}`}>{m.status.continueForm}</LinkButton>;
      break;
    case "choosing":
      next = <LinkButton href={`/checkout/${session.id}/offers`}>{m.status.continueOffers}</LinkButton>;
      break;
    case "pending":
      next = (
        <>
          <LinkButton href={path}>{m.common.checkAgain}</LinkButton>
          {session.paymentUrl && session.financingStatus === "REQUESTED" ? (
            <LinkButton href={session.paymentUrl} variant="secondary" external>
              {m.status.continueProvider}
            </LinkButton>
          ) : null}
        </>
      );
      break;
    default:
      next = (
        <LinkButton href={view.returnUrl} external>
          {success || view.state === "refunded" ? m.common.backToPartner(partnerName) : m.common.payAnotherWay(partnerName)}
        </LinkButton>
      );
  }

  return (
    <div lang={locale}>
      <CheckoutHeader partnerName={partnerName} locale={locale} messages={m} returnTo={path} step={STEP[view.state]} />
      <main id="main" tabIndex={-1} className="mx-auto flex max-w-2xl flex-col gap-6 px-4 py-6 sm:py-10">
        {/* Announced when the poller refreshes the page with a new outcome. */}
        <div aria-live="polite" className="flex flex-col gap-4">
          <h1 className="text-3xl font-bold">{text.title}</h1>
          <Notice tone={TONE[view.state]}>
            <p>{text.body}</p>
          </Notice>
        </div>
        <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">{next}</div>
        {view.state === "pending" ? (
          <StatusPoller
            sessionId={session.id}
            state={view.state}
            final={view.final}
            text={{ checking: m.status.checking, checkFailed: m.status.checkFailed }}
          />
        ) : null}
        <BookingSummary booking={session.booking} locale={locale} messages={m} />
      </main>
    </div>
  );
}
