import "server-only";
import countries from "i18n-iso-countries";
import { z } from "zod";
import type { AppContext } from "@/lib/app-context";
import { clientIpFrom } from "@/lib/security/network/client-ip";
import { getEnv } from "@/lib/config/env";
import { isFinancingApiError } from "@/lib/financing/errors";
import { formatAmount, formatPercent } from "@/lib/i18n/format";
import { resolveLocale, type Locale } from "@/lib/i18n/locales";
import { getMessages } from "@/lib/i18n/server";
import { loggerFor } from "@/lib/logger";
import { isPartnerDisabled, partnerById } from "@/lib/partners/partners";
import { addressBucket } from "@/lib/security/limits/address-bucket";
import { sharedBuckets, spendTokens, type SharedBuckets } from "@/lib/security/limits/shared-token-bucket";
import { createBadgeQuotes, parseAmountCents, type BadgeQuote } from "./badge";

/**
 * GET /api/badge?partner=<id>&amount=1234.50[&country=ESP][&lang=es]: what public/badge.js shows
 * on a partner's product page. Public (no secret: it says what the partner's own page advertises),
 * read cross-origin by the partner's allowed origins only (CORS), cacheable for five minutes.
 */

/**
 * The badge's cache (per instance: a cache) and its budget of partner API calls (cache misses), per
 * partner and per client address, an IPv6 one by its /64: token buckets in the database
 * (lib/security/limits/shared-token-bucket.ts), so every instance spends the same budget.
 */
export interface BadgeDeps {
  quotes: ReturnType<typeof createBadgeQuotes>;
  perPartner: SharedBuckets;
  perIp: SharedBuckets;
  /** The buckets' clock (tests); the time of the call otherwise. */
  now?: () => Date;
}

let defaults: BadgeDeps | undefined;

function defaultDeps(): BadgeDeps {
  if (!defaults) {
    const { perPartnerPerMinute, perIpPerMinute } = getEnv().badgeBudget;
    defaults = {
      quotes: createBadgeQuotes(),
      perPartner: sharedBuckets("badge:partner", perPartnerPerMinute),
      perIp: sharedBuckets("badge:ip", perIpPerMinute),
    };
  }
  return defaults;
}

/**
 * The client's address for the per-IP budget: the socket's, or the configured proxy hop's
 * (lib/security/network/client-ip.ts, TRUSTED_PROXY_HOPS); never an address the client wrote itself.
 */
export function badgeClientIp(request: Request, trustedProxyHops = getEnv().TRUSTED_PROXY_HOPS): string {
  return clientIpFrom(request.headers, trustedProxyHops);
}

const querySchema = z.object({
  partner: z.string().regex(/^[\w-]{1,64}$/, "must be a partner id"),
  amount: z.string().refine((value) => parseAmountCents(value) !== undefined, "must be an amount in EUR like 1234.50"),
  country: z
    .string()
    .regex(/^[A-Z]{3}$/, "must be an ISO 3166-1 alpha-3 code like ESP")
    // A made-up code would be one more partner API call (and cache entry) per request.
    .refine((code) => countries.isValid(code), "must be an ISO 3166-1 alpha-3 code like ESP")
    .default("ESP"),
  lang: z.string().optional(),
});

const money = (value: { cents: number; currency: string }) => ({ amount: value.cents / 100, currency: value.currency });

export async function badgeResponse(
  ctx: Pick<AppContext, "db" | "clientFor">,
  request: Request,
  deps: BadgeDeps = defaultDeps(),
): Promise<Response> {
  const url = new URL(request.url);
  const parsed = querySchema.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => ({ field: issue.path.map(String).join("."), message: issue.message }));
    return Response.json(
      { error: { code: "validation_failed", message: "Invalid badge request", fields } },
      { status: 400, headers: { "Cache-Control": "no-store" } },
    );
  }
  const query = parsed.data;
  const partner = await partnerById(ctx.db, query.partner);
  // A partner an operator disabled offers no installments: the badge hides, as for no partner.
  if (!partner || isPartnerDisabled(partner))
    return Response.json({ visible: false }, { status: 404, headers: { "Cache-Control": "no-store" } });

  const origin = request.headers.get("origin");
  const headers: Record<string, string> = { "Cache-Control": "public, max-age=300", Vary: "Origin, Accept-Language" };
  // Only the partner's own pages may read it from a browser.
  if (origin && partner.allowedOrigins.includes(origin)) headers["Access-Control-Allow-Origin"] = origin;

  const price = { cents: parseAmountCents(query.amount)!, currency: "EUR" };
  const address = addressBucket(badgeClientIp(request));
  const quote = await deps.quotes.quote(
    partner.id,
    price,
    query.country,
    async () => (await ctx.clientFor(partner).simulate(price, { countryCode: query.country })).offers,
    (error) => isFinancingApiError(error, "NO_FINANCIAL_COMPANIES_CONFIGURED"),
    () =>
      spendTokens(
        ctx.db,
        [
          { buckets: deps.perPartner, key: partner.id },
          { buckets: deps.perIp, key: address },
        ],
        deps.now?.(),
      ),
  );
  if (!quote.visible && quote.reason === "rate_limited") {
    const retryAfter = Math.max(1, Math.ceil(quote.retryAfterMs / 1000));
    loggerFor("badge").info({ partnerId: partner.id, retryAfter }, "badge: upstream budget spent, answered 429");
    return Response.json(
      { error: { code: "rate_limited", message: "Too many badge requests for new prices. Try again later." } },
      {
        status: 429,
        headers: {
          "Cache-Control": "no-store",
          "Retry-After": String(retryAfter),
          ...(headers["Access-Control-Allow-Origin"] ? { "Access-Control-Allow-Origin": headers["Access-Control-Allow-Origin"] } : {}),
        },
      },
    );
  }
  if (!quote.visible) return Response.json({ visible: false }, { headers });

  // The page's language (badge.js sends it), else the browser's.
  const locale = resolveLocale({ sessionLocale: query.lang, acceptLanguage: request.headers.get("accept-language") });
  return Response.json(
    { visible: true, partner: partner.id, price: money(price), country: query.country, ...describe(quote, locale) },
    { headers },
  );
}

function describe(quote: Extract<BadgeQuote, { visible: true }>, locale: Locale) {
  const m = getMessages(locale);
  const example = quote.example;
  const format = (value: { cents: number; currency: string }) => formatAmount(value, locale);
  const regular = format(example.regularInstallment);
  const quota = quote.exampleDiffering
    ? m.offers.example.differing(regular, quote.exampleDiffering.first, format(quote.exampleDiffering.amount))
    : regular;
  return {
    locale,
    installments: quote.installments,
    monthly: money(quote.monthly),
    representativeExample: {
      companyName: example.companyName,
      tin: example.tin,
      tae: example.tae,
      amountOfCredit: money(example.amountOfCredit),
      durationMonths: example.durationMonths,
      installments: example.installments,
      regularInstallment: money(example.regularInstallment),
      totalOwed: money(example.totalOwed),
      costOfCredit: money(example.costOfCredit),
      cashPrice: money(example.cashPrice),
    },
    text: {
      label: m.badge.from(quote.installments, format(quote.monthly)),
      exampleToggle: m.badge.exampleToggle,
      example: m.offers.example.text({
        credit: format(example.amountOfCredit),
        months: example.durationMonths,
        installments: example.installments,
        quota,
        tin: formatPercent(example.tin, locale),
        tae: formatPercent(example.tae, locale),
        owed: format(example.totalOwed),
        cost: format(example.costOfCredit),
        cash: format(example.cashPrice),
        company: example.companyName,
      }),
      warning: m.offers.warning,
    },
  };
}
