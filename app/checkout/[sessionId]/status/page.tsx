import type { Metadata } from "next";
import { cookies } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { BookingSummary } from "@/components/checkout/booking-summary";
import { CheckoutHeader } from "@/components/checkout/checkout-header";
import { LinkButton } from "@/components/ui/link-button";
import { Notice } from "@/components/ui/notice";
import { StatusPoller } from "@/components/checkout/status-poller";
import { EmbedBridge } from "@/components/embed/embed-bridge";
import { PartnerTheme } from "@/components/theme/partner-theme";
import { getCheckoutContext, pollStatus } from "@/lib/checkout/flow";
import { partnerById } from "@/lib/checkout/partners";
import { getSession, type SessionState } from "@/lib/checkout/sessions";
import { EMBED_RETURN_COOKIE, embedContext, embedHref, embedLocaleHint, HANDOFF_PARAM } from "@/lib/embed/context";
import { getLocale, getMessages } from "@/lib/i18n/server";
import { partnerTheme } from "@/lib/theme/store";

/**
 * Step 5 (design.md §3): what happened, in words, and what comes next. Rendering asks the partner
 * API for the status (pollStatus), so a reload (the "Check again" link, without JavaScript) shows
 * the latest; with JavaScript, StatusPoller refreshes the page when the state changes.
 *
 * Embedded (in the partner's page): right after a plan is chosen (`?handoff=1`), the frame asks the
 * page to open the provider's checkout at the top level (through /embed/{id}/continue, which marks
 * the customer as coming from an embedded checkout); the link does the same without JavaScript.
 * Back from the provider, at the top level, a customer so marked is sent on to the partner's page
 * once the outcome is final: the checkout frame there shows it and tells the page.
 */

type Props = {
  params: Promise<{ sessionId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const ctx = await getCheckoutContext();
  const session = await getSession(ctx.db, (await params).sessionId);
  const m = getMessages(embedLocaleHint(await searchParams) ?? (await getLocale(session?.locale)));
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

export default async function StatusPage({ params, searchParams }: Props) {
  const { sessionId } = await params;
  const ctx = await getCheckoutContext();
  const session = await getSession(ctx.db, sessionId);
  if (!session) notFound();

  const query = await searchParams;
  const partner = await partnerById(ctx.db, session.partnerId);
  const embed = partner ? embedContext(query, partner.allowedOrigins) : undefined;
  const view = await pollStatus(ctx, session.id);
  if (!embed && view.final && (await cookies()).get(EMBED_RETURN_COOKIE)?.value === session.id) redirect(view.returnUrl);

  const locale = embed?.locale ?? (await getLocale(session.locale));
  const m = getMessages(locale);
  const theme = partner ? partnerTheme(partner) : undefined;
  const partnerName = partner?.name ?? "";
  const path = `/checkout/${session.id}/status`;
  const text = m.status.states[view.state];
  const success = view.state === "approved" || view.state === "confirmed";
  const atProvider = view.state === "pending" && Boolean(session.paymentUrl) && session.financingStatus === "REQUESTED";
  // Embedded, the provider's checkout opens at the top level, through our hand-off route.
  const providerHref = embed ? `/embed/${session.id}/continue` : session.paymentUrl;
  const top = embed ? ("_top" as const) : undefined;

  let next: React.ReactNode;
  switch (view.state) {
    case "open":
      next = <LinkButton href={embedHref(`/checkout/${session.id}`, embed)}>{m.status.continueForm}</LinkButton>;
      break;
    case "choosing":
      next = <LinkButton href={embedHref(`/checkout/${session.id}/offers`, embed)}>{m.status.continueOffers}</LinkButton>;
      break;
    case "pending":
      next = (
        <>
          <LinkButton href={embedHref(path, embed)}>{m.common.checkAgain}</LinkButton>
          {atProvider && providerHref ? (
            <LinkButton href={providerHref} variant="secondary" external target={top}>
              {m.status.continueProvider}
            </LinkButton>
          ) : null}
        </>
      );
      break;
    default:
      next = (
        <LinkButton href={view.returnUrl} external target={top}>
          {success || view.state === "refunded" ? m.common.backToPartner(partnerName) : m.common.payAnotherWay(partnerName)}
        </LinkButton>
      );
  }

  return (
    <div lang={locale}>
      {partner ? <PartnerTheme partnerId={partner.id} theme={theme} /> : null}
      {embed ? (
        <EmbedBridge
          parentOrigin={embed.parentOrigin}
          sessionId={session.id}
          step={atProvider ? "provider" : "status"}
          state={view.state}
          final={view.final}
          navigateTo={atProvider && query[HANDOFF_PARAM] === "1" ? `/embed/${session.id}/continue` : undefined}
        />
      ) : null}
      <CheckoutHeader
        partnerName={partnerName}
        logoUrl={theme?.logoUrl}
        locale={locale}
        messages={m}
        returnTo={path}
        step={STEP[view.state]}
        embed={embed}
      />
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
