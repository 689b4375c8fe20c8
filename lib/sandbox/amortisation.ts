/**
 * French amortisation (constant payments) to the cent, its opening fee and its APR: the sums behind
 * every sandbox offer (`offers.ts`). Pure; integer cents throughout, roundings half up.
 */

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
