import { LRUCache } from "lru-cache";
import { representativeExample, type RepresentativeExample } from "@/lib/financing/offers";
import type { FinancialOffer, Money } from "@/lib/financing/types";
import { logError, loggerFor } from "@/lib/logger";

/**
 * The installment badge of a partner's product page ("from 24 × €56.94 per month"): computed from
 * the partner API's indicative simulation (GET /financing/simulate), on our server with the
 * partner's credential, and cached in memory, so a busy product page costs the API one call per
 * price every ten minutes and no key ever reaches a browser.
 *
 * "From" is the lowest regular monthly installment (commonQuota) among the offers, with its number
 * of installments (the fewer, on a tie); the representative example is the checkout's own (the
 * plan with the highest TAE: it never looks cheaper than what is on offer). Outside the advertised
 * range, or with no offer, there is no badge.
 */

/** The range the financing is advertised for (the partner API's providers: 60 to 5,000 EUR). */
export const BADGE_MIN_CENTS = 60_00;
export const BADGE_MAX_CENTS = 5_000_00;

export type HiddenReason = "out_of_range" | "no_offer" | "unavailable";

export type BadgeQuote =
  | {
      visible: true;
      installments: number;
      monthly: Money;
      companyName: string;
      example: RepresentativeExample;
      /** The example's plan's one differing installment, when it differs. */
      exampleDiffering?: { amount: Money; first: boolean };
    }
  | { visible: false; reason: HiddenReason }
  /** A miss that would have called the partner API, over budget: not cached, ask again after the wait. */
  | { visible: false; reason: "rate_limited"; retryAfterMs: number };

/** Asked on a cache miss, before the partner API is called: whether the call is within budget. */
export type SpendBudget = () => Promise<{ ok: true } | { ok: false; retryAfterMs: number }>;

export function inRange(price: Money): boolean {
  return price.currency === "EUR" && price.cents >= BADGE_MIN_CENTS && price.cents <= BADGE_MAX_CENTS;
}

/** A decimal amount as a query string writes it ("1234.50", "60", "0.5") to whole cents, exactly. */
export function parseAmountCents(text: string): number | undefined {
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

export function quoteFromOffers(offers: readonly FinancialOffer[], price: Money): BadgeQuote {
  if (!inRange(price)) return { visible: false, reason: "out_of_range" };
  const lowest = [...offers].sort((a, b) => a.commonQuota.cents - b.commonQuota.cents || a.installments - b.installments)[0];
  const example = representativeExample(offers, price);
  if (!lowest || !example) return { visible: false, reason: "no_offer" };
  const exampleOffer = offers.find((offer) => offer.id === example.offerId);
  return {
    visible: true,
    installments: lowest.installments,
    monthly: lowest.commonQuota,
    companyName: lowest.companyName,
    example,
    ...(exampleOffer && exampleOffer.differentialQuota.cents !== exampleOffer.commonQuota.cents
      ? { exampleDiffering: { amount: exampleOffer.differentialQuota, first: exampleOffer.differentialIsFirst } }
      : {}),
  };
}

export interface BadgeQuotesOptions {
  /** How long a quote is kept (with or without an offer). Default 10 minutes. */
  ttlMs?: number;
  /** How long "the partner API did not answer" is kept, so an outage is not hammered. Default 30 s. */
  errorTtlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

/** What the cache asks for on a miss: the simulation's offers, or throws. */
export type Simulate = () => Promise<FinancialOffer[]>;

/** Whether a simulation error means "no offer" (cached like one) rather than "try again later". */
export type IsNoOffer = (error: unknown) => boolean;

interface Entry {
  quote: Promise<BadgeQuote>;
  /** When it goes stale: known only once the simulation has answered (an outage is kept less). */
  expires: number;
}

/**
 * Quotes per (partner, price, market), cached (the least recently used go first when full);
 * concurrent misses for one key share one call, and a miss spends the caller's budget first. Prices outside the range are answered at once,
 * without a call. Each entry carries its own expiry, since it depends on how the call ended.
 */
export function createBadgeQuotes(options: BadgeQuotesOptions = {}) {
  const ttl = options.ttlMs ?? 10 * 60_000;
  const errorTtl = options.errorTtlMs ?? 30_000;
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? Date.now;
  const entries = new LRUCache<string, Entry>({ max: maxEntries });

  function quote(
    partnerId: string,
    price: Money,
    countryCode: string,
    simulate: Simulate,
    isNoOffer: IsNoOffer = () => false,
    spend: SpendBudget = () => Promise.resolve({ ok: true }),
  ): Promise<BadgeQuote> {
    if (!inRange(price)) return Promise.resolve({ visible: false, reason: "out_of_range" });
    const key = `${partnerId}|${price.cents}|${price.currency}|${countryCode}`;
    const hit = entries.get(key);
    if (hit && hit.expires > now()) return hit.quote;
    // Only a call to the partner API spends the budget: cached answers (and a call already under
    // way for this key, or its budget being asked) are served whatever it holds. The entry is in
    // place before the budget is asked, so concurrent misses for one key spend it once.
    const entry: Entry = { quote: Promise.resolve({ visible: false, reason: "unavailable" }), expires: Number.POSITIVE_INFINITY };
    const forget = () => {
      if (entries.get(key) === entry) entries.delete(key);
    };
    entry.quote = spend().then(
      (budget): Promise<BadgeQuote> => {
        if (budget.ok) return call();
        // Over budget: nothing to keep, the next request asks again.
        forget();
        return Promise.resolve({ visible: false, reason: "rate_limited", retryAfterMs: budget.retryAfterMs });
      },
      (error: unknown) => {
        // The budget could not be asked (the database): nothing kept, the error answered as any other.
        forget();
        throw error;
      },
    );
    entries.set(key, entry);
    return entry.quote;

    function call(): Promise<BadgeQuote> {
      return simulate().then(
        (offers) => {
          entry.expires = now() + ttl;
          return quoteFromOffers(offers, price);
        },
        (error: unknown) => {
          if (isNoOffer(error)) {
            entry.expires = now() + ttl;
            return { visible: false, reason: "no_offer" } as const;
          }
          entry.expires = now() + errorTtl;
          logError(loggerFor("badge"), "badge: the simulation failed", error);
          return { visible: false, reason: "unavailable" } as const;
        },
      );
    }
  }

  return { quote, size: () => entries.size, clear: () => entries.clear() };
}
