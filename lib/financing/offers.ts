import type { FinancialOffer, Money } from "@/lib/financing/types";

/**
 * What the customer compares: what each plan costs in the end. Computed from the installments
 * themselves (in cents), so the total is what the customer will actually pay.
 */

/** The sum of every installment: (n - 1) regular ones and the differing one. */
export function totalOwed(offer: FinancialOffer): Money {
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
