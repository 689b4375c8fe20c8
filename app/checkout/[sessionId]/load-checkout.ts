import "server-only";
import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { preloadedSession } from "@/lib/checkout/session/page-preload";
import { readSession } from "@/lib/checkout/session/read-session";
import { sessionState, type CheckoutSession, type SessionState } from "@/lib/checkout/session/session-state";
import { embedContext, embedHref, embedLocaleHint } from "@/lib/embed/context";
import { headers } from "next/headers";
import { CHECKOUT_PAGE_HEADER } from "@/lib/http/checkout-page";
import type { Locale } from "@/lib/i18n/locales";
import type { Messages } from "@/lib/i18n/messages";
import { getLocale, getMessages } from "@/lib/i18n/server";
import { isPartnerDisabled } from "@/lib/partners/partners";
import { partnerTheme } from "@/lib/theme/store";

/*
 * The start every checkout page shares: the session (404 when unknown), its partner, the embedded
 * mode (only for an origin the partner allows), the page's own rule on where a session in this
 * state belongs, then the language and the partner's theme.
 */

export type CheckoutPageProps = {
  params: Promise<{ sessionId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** The checkout's pages, in the order the customer meets them. */
export type CheckoutStep = "details" | "offers" | "status";

/** Every checkout page: the steps, and the page of a partner an operator disabled. */
type CheckoutPage = CheckoutStep | "unavailable";

const STEP_PATHS: Record<CheckoutPage, string> = { details: "", offers: "/offers", status: "/status", unavailable: "/unavailable" };

function stepPath(sessionId: string, step: CheckoutPage): string {
  return `/checkout/${sessionId}${STEP_PATHS[step]}`;
}

/**
 * One read of the session per request, shared by the root layout, generateMetadata and the page;
 * its partner from the short-lived partner cache (lib/partners/cache.ts: at most a few seconds old).
 */
const loadSession = cache((sessionId: string) => preloadedSession(sessionId) ?? readSession(sessionId));

/**
 * The language of the checkout page being rendered, for the root layout's <html lang> (which
 * cannot see the page's params or query): the same rule as loadCheckout's, from the path and query
 * proxy.ts hands over. Undefined outside a checkout page, or when the session cannot be read (the
 * layout then uses the request's own language) unless the embedding page named its language.
 */
export async function checkoutPageLocale(): Promise<Locale | undefined> {
  const page = (await headers()).get(CHECKOUT_PAGE_HEADER);
  const url = page ? new URL(page, "http://app.invalid") : undefined;
  const sessionId = url && /^\/checkout\/([^/]+)/.exec(url.pathname)?.[1];
  if (!url || !sessionId) return undefined;
  let loaded: Awaited<ReturnType<typeof loadSession>>;
  try {
    loaded = await loadSession(sessionId);
  } catch {
    // The page itself reads the session again and reports the failure (a 503 page when the
    // database is down): in the embedding page's language, if it gave one.
    return embedLocaleHint(Object.fromEntries(url.searchParams));
  }
  if (!loaded.session) return undefined;
  const embed = loaded.partner ? embedContext(Object.fromEntries(url.searchParams), loaded.partner.allowedOrigins) : undefined;
  return embed?.locale ?? (await getLocale(loaded.session.locale));
}

/** A checkout page's title, in the language the page will speak; never indexed. */
export async function checkoutMetadata({ params, searchParams }: CheckoutPageProps, title: keyof Messages["meta"]): Promise<Metadata> {
  const { session } = await loadSession((await params).sessionId);
  const m = getMessages(embedLocaleHint(await searchParams) ?? (await getLocale(session?.locale)));
  return { title: m.meta[title], robots: { index: false, follow: false } };
}

/** The query parameters a checkout page keeps across a language switch. */
function keptQuery(query: Record<string, string | string[] | undefined>): Record<string, string> {
  const kept: Record<string, string> = {};
  if (typeof query.n === "string" && /^\d{1,3}$/.test(query.n)) kept.n = query.n;
  if (query.edit === "1") kept.edit = "1";
  return kept;
}

/** What loadCheckout gives a checkout page. */
export type LoadedCheckout = Awaited<ReturnType<typeof loadCheckout>>;

/**
 * Loads what a checkout page shows, or ends the request: not found for an unknown session; the
 * "unavailable" page for every step of a disabled partner's session (and the details step for that
 * page once the partner is enabled again); a redirect (keeping the embedded mode) when `belongsIn`
 * names another step for the session's state.
 */
export async function loadCheckout(
  { params, searchParams }: CheckoutPageProps,
  step: CheckoutPage,
  belongsIn?: (state: SessionState, session: CheckoutSession) => CheckoutStep | undefined,
) {
  const { ctx, session, partner } = await loadSession((await params).sessionId);
  if (!session) notFound();

  const query = await searchParams;
  const embed = partner ? embedContext(query, partner.allowedOrigins) : undefined;
  const disabled = partner !== undefined && isPartnerDisabled(partner);
  if (disabled !== (step === "unavailable")) redirect(embedHref(stepPath(session.id, disabled ? "unavailable" : "details"), embed));
  const state = sessionState(session);
  const elsewhere = belongsIn?.(state, session);
  if (elsewhere && elsewhere !== step) redirect(embedHref(stepPath(session.id, elsewhere), embed));

  const locale = embed?.locale ?? (await getLocale(session.locale));
  return {
    ctx,
    session,
    query,
    partner,
    embed,
    state,
    locale,
    m: getMessages(locale),
    theme: partner ? partnerTheme(partner) : undefined,
    partnerName: partner?.name ?? "",
    /** When this page read the session (server time, ms): components/checkout/details-freshness.tsx. */
    renderedAt: Date.now(),
    /** This page's path: where a post without JavaScript comes back to. */
    path: stepPath(session.id, step),
    /**
     * Where the language switch comes back to: this page as the customer chose it (the installment
     * count shown, the correction form), nothing else from the query.
     */
    returnTo: embedHref(stepPath(session.id, step), undefined, keptQuery(query)),
    /** A step's address for this session, in the embedded mode if the page is in it. */
    href: (to: CheckoutStep) => embedHref(stepPath(session.id, to), embed),
  };
}
