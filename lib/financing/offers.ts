import type { FinancialOffer, Money } from "@/lib/financing/types";

/**
 * What the customer compares: what each plan costs in the end. Computed from the installments
 * themselves (in cents), so the total is what the customer will actually pay.
 */

/** The sum of every installment: (n - 1) regular ones and the differing one. */
export function totalOwed(offer: Pick<FinancialOffer, "commonQuota" | "installments" | "differentialQuota">): Money {
  return {
    cents: offer.commonQuota.cents * (offer.installments - 1) + offer.differentialQuota.cents,
    currency: offer.commonQuota.currency,
  };
}

/** What the credit costs: everything paid beyond the amount financed (interest and fees). */
export function costOfCredit(offer: FinancialOffer): Money {
  return { cents: totalOwed(offer).cents - offer.totalFinanced.cents, currency: offer.totalFinanced.currency };
}

/** Fewest installments first; for the same count, the cheapest first. */
export function sortOffers(offers: readonly FinancialOffer[]): FinancialOffer[] {
  return [...offers].sort(
    (a, b) => a.installments - b.installments || totalOwed(a).cents - totalOwed(b).cents || a.tae - b.tae || a.id - b.id,
  );
}

export interface RepresentativeExample {
  offerId: number;
  companyName: string;
  tin: number;
  tae: number;
  /** The amount of credit. */
  amountOfCredit: Money;
  durationMonths: number;
  installments: number;
  regularInstallment: Money;
  totalOwed: Money;
  costOfCredit: Money;
  /** The cash price of the trip. */
  cashPrice: Money;
}

/**
 * The representative example (Ley 16/2011, art. 9) of the plans shown: the one with the highest
 * TAE, so the example never looks cheaper than what is on offer.
 */
export function representativeExample(offers: readonly FinancialOffer[], cashPrice: Money): RepresentativeExample | undefined {
  const offer = [...offers].sort((a, b) => b.tae - a.tae || b.installments - a.installments)[0];
  if (!offer) return undefined;
  return {
    offerId: offer.id,
    companyName: offer.companyName,
    tin: offer.tin,
    tae: offer.tae,
    amountOfCredit: offer.totalFinanced,
    durationMonths: offer.installments,
    installments: offer.installments,
    regularInstallment: offer.commonQuota,
    totalOwed: totalOwed(offer),
    costOfCredit: costOfCredit(offer),
    cashPrice,
  };
}

/**
 * One installment count the customer can pick, as its plan with the lowest monthly installment
 * pays it: that installment, and the first or last one when it differs (an opening fee, rounding),
 * so the count never reads cheaper than what is paid.
 */
export interface InstallmentChoice {
  installments: number;
  lowestMonthly: Money;
  /** That plan's installment that differs from the others, when one does. */
  differing?: { first: boolean; amount: Money };
}

/** A plan's one installment that differs from the others (an opening fee, rounding), when one does. */
export function differingInstallment(
  offer: Pick<FinancialOffer, "installments" | "commonQuota" | "differentialQuota" | "differentialIsFirst">,
): InstallmentChoice["differing"] {
  return offer.installments > 1 && offer.differentialQuota.cents !== offer.commonQuota.cents
    ? { first: offer.differentialIsFirst, amount: offer.differentialQuota }
    : undefined;
}

/** The counts on offer, fewest first, each as its plan with the lowest regular (monthly) installment pays it. */
export function installmentChoices(offers: readonly FinancialOffer[]): InstallmentChoice[] {
  const byCount = new Map<number, FinancialOffer>();
  for (const offer of offers) {
    const best = byCount.get(offer.installments);
    // On a tie, the plan that costs less in all.
    const better =
      !best ||
      offer.commonQuota.cents < best.commonQuota.cents ||
      (offer.commonQuota.cents === best.commonQuota.cents && totalOwed(offer).cents < totalOwed(best).cents);
    if (better) byCount.set(offer.installments, offer);
  }
  return [...byCount.entries()]
    .sort(([a], [b]) => a - b)
    .map(([installments, plan]) => {
      const differing = differingInstallment(plan);
      return { installments, lowestMonthly: plan.commonQuota, ...(differing ? { differing } : {}) };
    });
}

/**
 * The count shown first: 12 when offered, else the count nearest to it (the shorter on a tie).
 * A year is what customers of instalment checkouts pick most (and what Aplazame and seQura put
 * first): a monthly amount an order of magnitude below the price, at a moderate cost of credit,
 * where the shortest terms ask a lot per month and the longest cost the most. A count the customer
 * asked for (`requested`, from the URL) wins when it is on offer.
 */
export const PREFERRED_INSTALLMENTS = 12;

export function defaultInstallments(choices: readonly InstallmentChoice[], requested?: number): number | undefined {
  if (requested !== undefined && choices.some((choice) => choice.installments === requested)) return requested;
  let best: number | undefined;
  for (const { installments } of choices) {
    const distance = Math.abs(installments - PREFERRED_INSTALLMENTS);
    if (best === undefined || distance < Math.abs(best - PREFERRED_INSTALLMENTS)) best = installments;
  }
  return best;
}

/** The plans with `installments` installments, cheapest (lowest total owed) first, as sortOffers orders them. */
export function plansFor(offers: readonly FinancialOffer[], installments: number): FinancialOffer[] {
  return sortOffers(offers.filter((offer) => offer.installments === installments));
}

/** The id of the cheapest plan (lowest total owed) when there is more than one plan and one is strictly cheaper. */
export function cheapestPlanId(plans: readonly FinancialOffer[]): number | undefined {
  if (plans.length < 2) return undefined;
  const [first, second] = [...plans].sort((a, b) => totalOwed(a).cents - totalOwed(b).cents);
  return first && second && totalOwed(first).cents < totalOwed(second).cents ? first.id : undefined;
}
