import type { WireFinancialOffer } from "@/lib/financing/contract";

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
// Amortisation

/** One period of an amortisation table, in cents. */
export interface ScheduleRow {
  /** 1-based. */
  period: number;
  /** What the customer pays this period: principal + interest + fee + adjustment. */
  payment: number;
  interest: number;
  principal: number;
  /** Opening fee collected this period (only on the first). */
  fee: number;
  /**
   * Rounding cents collected early, when the first installment is the differing one: + on the
   * first, the same − on the last, 0 elsewhere (see `amortise`).
   */
  adjustment: number;
  /** Principal still owed after this period. */
  balance: number;
}

export interface AmortisationTerms {
  installments: number;
  tinBasisPoints: number;
  openingFeeBasisPoints?: number;
  openingFeeMinCents?: number;
  differentialIsFirst?: boolean;
}

export interface Amortisation {
  commonQuotaCents: number;
  differentialQuotaCents: number;
  totalInterestPaidCents: number;
  openingFeeCents: number;
  /** Everything the customer pays: amount + interest + fee, the sum of `rows[].payment`. */
  totalOwedCents: number;
  rows: ScheduleRow[];
}

/** The opening fee in cents: a share of the amount, with its floor; 0 when the product has no fee. */
export function openingFeeCents(amountCents: number, basisPoints: number, minCents = 0): number {
  if (basisPoints <= 0) return 0;
  return Math.max(minCents, Math.round((amountCents * basisPoints) / 10_000));
}

/**
 * French amortisation (constant installment) of `amountCents`, to the cent.
 *
 * The regular installment is the textbook quota P·i / (1 − (1+i)^−n) rounded to the cent. Each
 * period's interest is the principal still owed × i, rounded to the cent, and the total interest is
 * the sum of those roundings. Paying the rounded quota every period leaves a few cents over or
 * under by the end; exactly one installment absorbs them so that (n−1)·common + differential is
 * amount + interest + fee to the cent.
 *
 * Which installment absorbs them: the last, or, when `differentialIsFirst`, the first, which then
 * also carries the opening fee. In the first case the rounding cents are collected early but the
 * interest is still charged on the regular balance: moving a few cents to period 1 and recomputing
 * every later interest would change the roundings again and has, in general, no exact solution.
 */
export function amortise(amountCents: number, terms: AmortisationTerms): Amortisation {
  const { installments: n, tinBasisPoints } = terms;
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) throw new RangeError("amountCents must be a positive whole number");
  if (!Number.isInteger(n) || n < 1) throw new RangeError("installments must be a positive whole number");
  if (!Number.isInteger(tinBasisPoints) || tinBasisPoints < 0) throw new RangeError("tinBasisPoints must be a non-negative whole number");

  // Monthly rate i = TIN / 12 / 100 with TIN in basis points / 100: interest = balance × bp / 120,000.
  const monthlyRate = tinBasisPoints / 120_000;
  const quota = tinBasisPoints === 0 ? amountCents / n : (amountCents * monthlyRate) / (1 - Math.pow(1 + monthlyRate, -n));
  const commonQuotaCents = Math.round(quota);
  const fee = openingFeeCents(amountCents, terms.openingFeeBasisPoints ?? 0, terms.openingFeeMinCents ?? 0);
  const differentialIsFirst = terms.differentialIsFirst ?? false;

  const rows: ScheduleRow[] = [];
  let balance = amountCents;
  let totalInterest = 0;
  for (let period = 1; period <= n; period++) {
    // Integer × integer is exact; the one division is then rounded once.
    const interest = Math.round((balance * tinBasisPoints) / 120_000);
    const principal = period === n ? balance : commonQuotaCents - interest;
    balance -= principal;
    totalInterest += interest;
    rows.push({ period, payment: principal + interest, interest, principal, fee: 0, adjustment: 0, balance });
  }

  // The regular schedule ends on a last payment that differs by the rounding left over.
  const last = rows[n - 1];
  const first = rows[0];
  if (last === undefined || first === undefined) throw new Error("unreachable: n >= 1");
  const rounding = last.payment - commonQuotaCents;
  if (differentialIsFirst && n > 1) {
    last.payment -= rounding;
    last.adjustment = -rounding;
    first.payment += rounding;
    first.adjustment = rounding;
  }
  first.payment += fee;
  first.fee = fee;

  const differential = differentialIsFirst ? first : last;
  const totalOwedCents = rows.reduce((sum, row) => sum + row.payment, 0);
  return {
    commonQuotaCents,
    differentialQuotaCents: differential.payment,
    totalInterestPaidCents: totalInterest,
    openingFeeCents: fee,
    totalOwedCents,
    rows,
  };
}

/**
 * The TAE (Spanish APR, fees included) of a loan of `amountCents` repaid by `payments` at monthly
 * intervals, in percent rounded to 2 decimals: the monthly internal rate r solving
 * amount = Σ payment_k / (1+r)^k, annualised as ((1+r)^12 − 1) · 100.
 *
 * Bisection rather than Newton: the present value is monotone in r, so bisection cannot diverge,
 * and it lands on exactly 0 when the payments add up to the amount (0 % without a fee).
 */
export function annualPercentageRate(amountCents: number, payments: readonly number[]): number {
  const paid = payments.reduce((sum, p) => sum + p, 0);
  if (paid <= amountCents) {
    // Nothing paid beyond the amount: no cost. (Less than the amount does not arise from `amortise`.)
    if (paid === amountCents) return 0;
    throw new RangeError("payments add up to less than the amount");
  }
  const excess = (rate: number) => payments.reduce((pv, p, k) => pv + p / Math.pow(1 + rate, k + 1), 0) - amountCents;
  let low = 0;
  let high = 0.01;
  while (excess(high) > 0) high *= 2;
  for (let step = 0; step < 200 && high - low > 1e-15; step++) {
    const mid = (low + high) / 2;
    if (excess(mid) > 0) low = mid;
    else high = mid;
  }
  const rate = (low + high) / 2;
  return roundTo2((Math.pow(1 + rate, 12) - 1) * 100);
}

function roundTo2(value: number): number {
  return Math.round(value * 100) / 100;
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
