import type { WireFinancialOffer } from "@/lib/financing/contract";
import { amortise, annualPercentageRate } from "./amortisation";

/**
 * The sandbox's financing offers: fictional providers' products and real French amortisation over
 * them, to the cent, so that every figure a partner sees can be checked by hand.
 *
 * Pure and deterministic (no I/O, no clock, no randomness): the same agency, market and amount
 * always give the same offers with the same ids, which is what lets GET /financing/{id} and
 * POST /financing agree on an offer without storing it.
 *
 * Money is integer cents throughout; the one conversion needed is `cents / 100`.
 * Intermediate roundings are half up (`Math.round`) on non-negative values.
 */

// ---------------------------------------------------------------------------------------------
// Catalog

/** The market quoted when the caller sends no `countryCode` (the spec: "Spain is quoted"). */
export const DEFAULT_COUNTRY_CODE = "ESP";

/** The advertised standard EUR range (60 to 5,000), in cents; every product uses it. */
export const MIN_AMOUNT_CENTS = 6_000;
export const MAX_AMOUNT_CENTS = 500_000;

/** A fictional finance provider. None of these names is a real bank. */
export interface SandboxProvider {
  /** Stable string id, sent on the wire as `providerId`. */
  id: string;
  /** One digit, part of every offer id (see `offerId`). */
  code: number;
  name: string;
}

/** One provider's product, as configured for one agency in one market. */
export interface SandboxProduct {
  provider: SandboxProvider;
  /** Installment counts offered, ascending. */
  installments: readonly number[];
  /** TIN in basis points (995 is 9.95 %), so that interest is computed on integers. */
  tinBasisPoints: number;
  /** Opening fee as basis points of the amount (250 is 2.5 %), 0 for none. */
  openingFeeBasisPoints: number;
  /** Floor of the opening fee, in cents, when there is a fee. */
  openingFeeMinCents: number;
  minAmountCents: number;
  maxAmountCents: number;
  /** Whether the differing installment is the first (it then carries the fee and the rounding). */
  differentialIsFirst: boolean;
}

const OLIVO: SandboxProvider = { id: "financiera-olivo", code: 1, name: "Financiera Olivo" };
const LEVANTE: SandboxProvider = { id: "credito-levante", code: 2, name: "Crédito Levante" };
const NUBE: SandboxProvider = { id: "banca-nube", code: 3, name: "Banca Nube" };

export const PROVIDERS: readonly SandboxProvider[] = [OLIVO, LEVANTE, NUBE];

type ProductTerms = Omit<
  SandboxProduct,
  "minAmountCents" | "maxAmountCents" | "openingFeeBasisPoints" | "openingFeeMinCents" | "differentialIsFirst"
> &
  Partial<Pick<SandboxProduct, "openingFeeBasisPoints" | "openingFeeMinCents" | "differentialIsFirst">>;

function product(terms: ProductTerms): SandboxProduct {
  const openingFeeBasisPoints = terms.openingFeeBasisPoints ?? 0;
  return {
    minAmountCents: MIN_AMOUNT_CENTS,
    maxAmountCents: MAX_AMOUNT_CENTS,
    openingFeeMinCents: 0,
    // A fee is collected with the first installment, so that is the one that differs.
    differentialIsFirst: openingFeeBasisPoints > 0,
    ...terms,
    openingFeeBasisPoints,
  };
}

/*
 * Agency -> market -> products. Agencies absent here (102 Viajes Brisa, 103 Viajes Cierzo) have no
 * provider configured; markets absent for an agency quote nothing.
 *
 * For 101 in ESP every installment count has at least two providers, because the sandbox's
 * multi-provider fallback (`+refuse_first`) needs another provider with the same count. 3 and 6
 * have three, the others exactly two, so `+refuse_offer` (every provider of the chosen count
 * refuses) can be exercised with either shape and still leaves other counts to choose from.
 */
const CATALOG: ReadonlyMap<number, ReadonlyMap<string, readonly SandboxProduct[]>> = new Map([
  [
    101,
    new Map([
      [
        "ESP",
        [
          product({ provider: OLIVO, installments: [3, 6, 12, 18, 24], tinBasisPoints: 995 }),
          product({ provider: LEVANTE, installments: [3, 6, 9, 12, 18, 24], tinBasisPoints: 1250 }),
          // The "0 % interest" product: its cost is the opening fee, which is why its TAE is not 0.
          product({ provider: NUBE, installments: [3, 6, 9], tinBasisPoints: 0, openingFeeBasisPoints: 250, openingFeeMinCents: 300 }),
        ],
      ],
      [
        "PRT",
        [
          product({ provider: LEVANTE, installments: [3, 6, 12], tinBasisPoints: 0 }),
          product({ provider: OLIVO, installments: [6, 12], tinBasisPoints: 1190 }),
        ],
      ],
    ]),
  ],
  [
    201,
    new Map([
      [
        "ESP",
        [
          product({ provider: OLIVO, installments: [3, 6, 12], tinBasisPoints: 1095 }),
          product({ provider: LEVANTE, installments: [3, 6, 12], tinBasisPoints: 1350 }),
        ],
      ],
      ["PRT", [product({ provider: OLIVO, installments: [6, 12], tinBasisPoints: 1190 })]],
    ]),
  ],
]);

// Offer ids are built from the provider code and the installment count, so they are only unique if
// the catalog respects these bounds: checked once, at load, rather than trusted.
for (const [agencyId, markets] of CATALOG) {
  if (!Number.isSafeInteger(agencyId) || agencyId <= 0) throw new Error(`sandbox catalog: bad agency id ${agencyId}`);
  for (const [market, products] of markets) {
    const codes = new Set<number>();
    for (const p of products) {
      const where = `sandbox catalog ${agencyId}/${market}/${p.provider.name}`;
      if (!Number.isInteger(p.provider.code) || p.provider.code < 1 || p.provider.code > 9)
        throw new Error(`${where}: provider code must be 1-9`);
      if (codes.has(p.provider.code)) throw new Error(`${where}: provider listed twice`);
      codes.add(p.provider.code);
      if (p.installments.some((n, k) => !Number.isInteger(n) || n < 1 || n > 99 || (k > 0 && n <= (p.installments[k - 1] ?? 0)))) {
        throw new Error(`${where}: installment counts must be ascending integers in 1-99`);
      }
      if (p.openingFeeBasisPoints > 0 && !p.differentialIsFirst) throw new Error(`${where}: a fee is paid with the first installment`);
    }
  }
}

function marketOf(countryCode: string | undefined): string {
  return countryCode ?? DEFAULT_COUNTRY_CODE;
}

/** The products configured for an agency in a market (ISO alpha-3, default ESP); empty when none. */
export function providersFor(agencyId: number, countryCode?: string): readonly SandboxProduct[] {
  return CATALOG.get(agencyId)?.get(marketOf(countryCode)) ?? [];
}

/**
 * Whether the agency has any financing provider configured, in any market. False is the sandbox's
 * 422 NO_FINANCIAL_COMPANIES_CONFIGURED; a configured agency asking for an unserved market gets an
 * empty offer list instead.
 */
export function agencyHasProviders(agencyId: number): boolean {
  const markets = CATALOG.get(agencyId);
  return markets !== undefined && [...markets.values()].some((products) => products.length > 0);
}

/** The markets an agency has providers in, for documentation pages and tests. */
export function marketsFor(agencyId: number): readonly string[] {
  return [...(CATALOG.get(agencyId)?.keys() ?? [])];
}

// ---------------------------------------------------------------------------------------------
// Offers

/** An offer as the sandbox computes it: what the wire needs, in cents, plus what the sandbox itself uses. */
export interface SandboxOffer {
  /** Stable for (agency, market, provider, installments); the `financialOfferId` of POST /financing. */
  id: number;
  providerId: string;
  companyName: string;
  /** Percent, 2 decimals. */
  tae: number;
  /** Percent, 2 decimals. */
  tin: number;
  installments: number;
  commonQuotaCents: number;
  differentialQuotaCents: number;
  differentialIsFirst: boolean;
  totalInterestPaidCents: number;
  totalFinancedCents: number;
  openingFeeCents: number;
  totalOwedCents: number;
  /** Every installment in order, in cents, for the provider checkout page. Sums to `totalOwedCents`. */
  schedule: readonly number[];
}

/**
 * The offer id: agency, market, provider and installment count read left to right, e.g. 1011212 is
 * agency 101, market 1 (ESP), provider 2, 12 installments. Markets outside this table have no
 * products, so they never need an id.
 */
const MARKET_DIGITS: Readonly<Record<string, number>> = { ESP: 1, PRT: 2 };

export function offerId(agencyId: number, countryCode: string, providerCode: number, installments: number): number {
  const market = MARKET_DIGITS[countryCode];
  if (market === undefined) throw new RangeError(`no offer ids for market ${countryCode}`);
  return ((agencyId * 10 + market) * 10 + providerCode) * 100 + installments;
}

/**
 * The offers for an amount, sorted by installment count then provider name. Empty when the agency
 * has no provider in that market or the amount is outside every product's range (60–5,000 EUR);
 * whether that is an error (422 for an agency with no providers, 400 for a non-positive amount) is
 * for the caller to decide.
 */
export function computeOffers(agencyId: number, countryCode: string | undefined, amountCents: number): SandboxOffer[] {
  if (!Number.isSafeInteger(amountCents)) throw new RangeError("amountCents must be a whole number");
  const market = marketOf(countryCode);
  const offers: SandboxOffer[] = [];
  for (const p of providersFor(agencyId, market)) {
    if (amountCents < p.minAmountCents || amountCents > p.maxAmountCents) continue;
    for (const installments of p.installments) {
      const plan = amortise(amountCents, { ...p, installments });
      offers.push({
        id: offerId(agencyId, market, p.provider.code, installments),
        providerId: p.provider.id,
        companyName: p.provider.name,
        tae: annualPercentageRate(
          amountCents,
          plan.rows.map((row) => row.payment),
        ),
        tin: p.tinBasisPoints / 100,
        installments,
        commonQuotaCents: plan.commonQuotaCents,
        differentialQuotaCents: plan.differentialQuotaCents,
        differentialIsFirst: p.differentialIsFirst,
        totalInterestPaidCents: plan.totalInterestPaidCents,
        totalFinancedCents: amountCents,
        openingFeeCents: plan.openingFeeCents,
        totalOwedCents: plan.totalOwedCents,
        schedule: plan.rows.map((row) => row.payment),
      });
    }
  }
  return offers.sort(
    (a, b) => a.installments - b.installments || (a.companyName < b.companyName ? -1 : a.companyName > b.companyName ? 1 : 0),
  );
}

/** The offer with that id for this agency, market and amount, or undefined (POST /financing's 422). */
export function findOffer(agencyId: number, countryCode: string | undefined, amountCents: number, id: number): SandboxOffer | undefined {
  return computeOffers(agencyId, countryCode, amountCents).find((offer) => offer.id === id);
}

/**
 * Other providers' offers with the same installment count as offer `id`, in offer order: where the
 * multi-provider fallback goes when the chosen provider refuses. Empty when `id` is unknown.
 */
export function alternativesWithSameInstallments(
  agencyId: number,
  countryCode: string | undefined,
  amountCents: number,
  id: number,
): SandboxOffer[] {
  const offers = computeOffers(agencyId, countryCode, amountCents);
  const chosen = offers.find((offer) => offer.id === id);
  if (chosen === undefined) return [];
  return offers.filter((offer) => offer.installments === chosen.installments && offer.providerId !== chosen.providerId);
}

/** The wire offer, with `financialOfferSchema`'s fields plus the extras the spec allows. */
export type SandboxWireOffer = WireFinancialOffer & {
  /** Opening fee, EUR. */
  openingFee: number;
  /** Amount + interest + fee, EUR: what the customer pays in all. */
  totalAmountOwed: number;
  providerId: string;
};

export function toWireOffer(offer: SandboxOffer): SandboxWireOffer {
  return {
    id: offer.id,
    companyName: offer.companyName,
    tae: offer.tae,
    tin: offer.tin,
    installments: offer.installments,
    commonQuota: offer.commonQuotaCents / 100,
    differentialQuota: offer.differentialQuotaCents / 100,
    differentialIsFirst: offer.differentialIsFirst,
    totalInterestPaid: offer.totalInterestPaidCents / 100,
    totalFinanced: offer.totalFinancedCents / 100,
    openingFee: offer.openingFeeCents / 100,
    totalAmountOwed: offer.totalOwedCents / 100,
    providerId: offer.providerId,
  };
}
