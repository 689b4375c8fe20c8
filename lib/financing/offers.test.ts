import { describe, expect, it } from "vitest";
import { money } from "./money";
import { cheapestPlanId, defaultInstallments, installmentChoices, plansFor, totalOwed } from "./offers";
import type { FinancialOffer } from "./types";

function offer(id: number, installments: number, monthlyCents: number, lastCents = monthlyCents): FinancialOffer {
  const financed = 120000;
  return {
    id,
    companyName: `Provider ${id}`,
    tae: 10,
    tin: 9,
    installments,
    commonQuota: money(monthlyCents),
    differentialQuota: money(lastCents),
    differentialIsFirst: false,
    totalInterestPaid: money(monthlyCents * (installments - 1) + lastCents - financed),
    totalFinanced: money(financed),
    extra: {},
  };
}

describe("the installments-first choice", () => {
  const offers = [offer(1, 12, 10850), offer(2, 12, 10700, 13000), offer(3, 3, 41150), offer(4, 24, 5800), offer(5, 6, 20900)];

  it("lists each count once, fewest first, with its lowest monthly installment and that plan's installment that differs", () => {
    expect(installmentChoices(offers)).toEqual([
      { installments: 3, lowestMonthly: money(41150) },
      { installments: 6, lowestMonthly: money(20900) },
      // Provider 2's 107,00 € a month ends with 130,00 €: the count says so.
      { installments: 12, lowestMonthly: money(10700), differing: { first: false, amount: money(13000) } },
      { installments: 24, lowestMonthly: money(5800) },
    ]);
  });

  it("says a first installment that differs (an opening fee), and picks the plan costing less on a tie", () => {
    const withFee = { ...offer(1, 6, 20575, 23661), differentialIsFirst: true };
    const dearer = { ...offer(2, 6, 20575, 30000), differentialIsFirst: true };
    expect(installmentChoices([dearer, withFee])).toEqual([
      { installments: 6, lowestMonthly: money(20575), differing: { first: true, amount: money(23661) } },
    ]);
  });

  it("preselects 12 when offered, else the nearest count (the shorter on a tie), unless the customer asked for one on offer", () => {
    const choices = installmentChoices(offers);
    expect(defaultInstallments(choices)).toBe(12);
    expect(defaultInstallments(choices, 24)).toBe(24);
    expect(defaultInstallments(choices, 9)).toBe(12);
    expect(defaultInstallments(installmentChoices([offer(1, 6, 1), offer(2, 18, 1), offer(3, 3, 1)]))).toBe(6);
    expect(defaultInstallments(installmentChoices([offer(1, 9, 1), offer(2, 15, 1)]))).toBe(9);
    expect(defaultInstallments([])).toBeUndefined();
  });

  it("gives a count's plans cheapest first, and marks the cheapest only when it is strictly cheaper", () => {
    const twelve = plansFor(offers, 12);
    expect(twelve.map((plan) => plan.id)).toEqual([1, 2]);
    expect(totalOwed(twelve[0]!).cents).toBeLessThan(totalOwed(twelve[1]!).cents);
    expect(cheapestPlanId(twelve)).toBe(1);
    expect(cheapestPlanId(plansFor(offers, 3))).toBeUndefined();
    expect(cheapestPlanId([offer(1, 12, 10000), offer(2, 12, 10000)])).toBeUndefined();
  });
});
