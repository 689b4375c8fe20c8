import type { Metadata } from "next";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { BookingSummary } from "@/components/checkout/booking-summary";
import { ChosenPlanSummary } from "@/components/checkout/chosen-plan";
import { CheckoutShell } from "@/components/checkout/checkout-shell";
import { StatusPoller } from "@/components/checkout/status-poller";
import { LinkButton } from "@/components/ui/link-button";
import { Notice } from "@/components/ui/notice";
import { pollStatus } from "@/lib/checkout/session/flow";
import type { SessionState } from "@/lib/checkout/session/session-state";
import { EMBED_RETURN_COOKIE, HANDOFF_PARAM } from "@/lib/embed/context";
import { checkoutMetadata, loadCheckout, type CheckoutPageProps } from "../load-checkout";
import { inRequestScope } from "@/lib/http/request-scope";
import { preloadedStatus } from "@/lib/checkout/session/page-preload";

/**
 * Step 5 (docs/contributors/architecture.md, "The checkout as data moves"): what happened, in words, and what comes next. Rendering asks the partner
 * API for the status (pollStatus; started by the HTTP server as the request arrives), so a reload
 * (the "Check again" link, without JavaScript) shows the latest; with JavaScript, StatusPoller
 * refreshes the page when the state changes.
 *
 * Embedded (in the partner's page): right after a plan is chosen (`?handoff=1`), the frame asks the
 * page to open the provider's checkout at the top level (through /embed/{id}/continue, which marks
 * the customer as coming from an embedded checkout); the link does the same without JavaScript.
 * Back from the provider, at the top level, a customer so marked is sent on to the partner's page
 * once the outcome is final: the checkout frame there shows it and tells the page.
 */

export async function generateMetadata(props: CheckoutPageProps): Promise<Metadata> {
  return checkoutMetadata(props, "statusTitle");
}

const TONE: Record<SessionState, "info" | "success" | "warning" | "error"> = {
  open: "info",
  choosing: "info",
  pending: "info",
  approved: "success",
  confirmed: "success",
  not_eligible: "warning",
  refused: "error",
  error: "error",
  cancelled: "warning",
  expired: "warning",
  refunded: "info",
};

/**
 * Where the customer is in the three steps: past them all once financed. An outcome without
 * financing (not eligible, refused, an error, cancelled, expired, refunded) shows no progress bar: three steps
 * "done" would read as a signed, successful financing; the page's words say what happened.
 */
const STEP: Record<SessionState, number | undefined> = {
  open: 1,
  choosing: 2,
  pending: 3,
  approved: 4,
  confirmed: 4,
  not_eligible: undefined,
  refused: undefined,
  error: undefined,
  cancelled: undefined,
  expired: undefined,
  refunded: undefined,
};

/** How often the waiting page reloads itself without JavaScript (StatusPoller polls with it). */
const NO_SCRIPT_REFRESH_S = 15;

export default async function StatusPage(props: CheckoutPageProps) {
  // Any state may be shown here: no step to send the customer to first.
  const page = await loadCheckout(props, "status");
  const { ctx, session, query, embed, locale, m, partnerName } = page;
  // Asked for as the request arrived (lib/checkout/session/page-preload.ts), or now; with the
  // request id on its log lines and sent upstream.
  const view = (await preloadedStatus(session.id)) ?? (await inRequestScope(() => pollStatus(ctx, session)));
  // Back from the provider at the top level after an embedded checkout: on to the partner's page.
  if (!embed && view.final && (await cookies()).get(EMBED_RETURN_COOKIE)?.value === session.id) redirect(view.returnUrl);

  const text = m.status.states[view.state];
  const success = view.state === "approved" || view.state === "confirmed";
  const paymentUrl = session.financingStatus === "REQUESTED" ? session.paymentUrl : null;
  // At the provider: with the paymentUrl POST /financing gave, or, when that answer was lost (an
  // instance stopped while the call was on its way), through the operation's financing page.
  const atProvider = view.state === "pending" && (paymentUrl !== null || view.operationStatus === "CLIENT_REQUESTED");
  // Embedded, the provider's checkout opens at the top level, through our hand-off route.
  const providerHref = embed ? `/embed/${session.id}/continue` : (paymentUrl ?? `/checkout/${session.id}/provider`);
  const top = embed ? ("_top" as const) : undefined;

  let next: React.ReactNode;
  switch (view.state) {
    case "open":
      next = <LinkButton href={page.href("details")}>{m.status.continueForm}</LinkButton>;
      break;
    case "choosing":
      next = <LinkButton href={page.href("offers")}>{m.status.continueOffers}</LinkButton>;
      break;
    case "pending":
      next = (
        <>
          <LinkButton href={page.href("status")}>{m.common.checkAgain}</LinkButton>
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
    <CheckoutShell
      page={page}
      step={STEP[view.state]}
      bridge={{
        step: atProvider ? "provider" : "status",
        state: view.state,
        final: view.final,
        navigateTo: atProvider && query[HANDOFF_PARAM] === "1" ? `/embed/${session.id}/continue` : undefined,
      }}
    >
      {/* Announced when the poller refreshes the page with a new outcome. */}
      <div aria-live="polite" className="flex flex-col gap-4">
        <h1 className="text-3xl font-bold">{text.title}</h1>
        <Notice tone={TONE[view.state]}>
          <p>{text.body}</p>
        </Notice>
      </div>
      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">{next}</div>
      {view.state === "pending" ? (
        <>
          {/* Without JavaScript, the page reloads itself while the provider decides, as it says it does. */}
          <noscript>
            <meta httpEquiv="refresh" content={String(NO_SCRIPT_REFRESH_S)} />
          </noscript>
          <StatusPoller
            sessionId={session.id}
            state={view.state}
            final={view.final}
            text={{ checking: m.status.checking, checkFailed: m.status.checkFailed }}
          />
        </>
      ) : null}
      {/* The plan chosen, while the provider decides and once financed (not after a refusal: not theirs). */}
      {session.chosenPlan && (view.state === "pending" || success) ? (
        <ChosenPlanSummary plan={session.chosenPlan} locale={locale} messages={m} />
      ) : null}
      <BookingSummary booking={session.booking} locale={locale} messages={m} />
    </CheckoutShell>
  );
}
