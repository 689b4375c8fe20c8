import { describe, expect, it } from "vitest";
import { financialOfferSchema } from "@/lib/financing/contract";
import { amortise, annualPercentageRate, openingFeeCents } from "./amortisation";
import {
  DEFAULT_COUNTRY_CODE,
  MAX_AMOUNT_CENTS,
  MIN_AMOUNT_CENTS,
  agencyHasProviders,
  alternativesWithSameInstallments,
  computeOffers,
  findOffer,
  marketsFor,
  offerId,
  providersFor,
  toWireOffer,
} from "./offers";

const CONFIGURED = [
  [101, "ESP"],
  [101, "PRT"],
  [201, "ESP"],
  [201, "PRT"],
] as const;

/** Amounts across the whole range in odd steps, so every rounding case turns up. */
function* sampleAmounts(): Generator<number> {
  for (let cents = MIN_AMOUNT_CENTS; cents <= MAX_AMOUNT_CENTS; cents += 4_999) yield cents;
  yield* [MIN_AMOUNT_CENTS + 1, 12_345, 99_999, 100_000, 123_457, MAX_AMOUNT_CENTS - 1, MAX_AMOUNT_CENTS];
}

describe("French amortisation to the cent", () => {
  it("matches the hand-checked 1,000.00 EUR at 12 % TIN over 12 months", () => {
    // i = 1 %; quota = 1000 · 0.01 / (1 − 1.01^−12) = 88.8488 -> 88.85. Period interests on the
    // remaining principal: 10.00, 9.21, 8.42, 7.61, 6.80, 5.98, 5.15, 4.31, 3.47, 2.61, 1.75, 0.88
    // = 66.19; the last installment is the 87.96 still owed + 0.88 = 88.84.
    const plan = amortise(100_000, { installments: 12, tinBasisPoints: 1200 });
    expect(plan.commonQuotaCents).toBe(8885);
    expect(plan.differentialQuotaCents).toBe(8884);
    expect(plan.rows.map((row) => row.interest)).toEqual([1000, 921, 842, 761, 680, 598, 515, 431, 347, 261, 175, 88]);
    expect(plan.totalInterestPaidCents).toBe(6619);
    expect(plan.openingFeeCents).toBe(0);
    expect(plan.totalOwedCents).toBe(106_619);
    expect(plan.rows.map((row) => row.payment)).toEqual([...Array<number>(11).fill(8885), 8884]);
    expect(plan.rows.at(-1)?.balance).toBe(0);
  });

  it("puts the fee and the rounding on the first installment when it is the differing one", () => {
    // 1,000.00 at 0 % over 3 with a 2.5 % fee: 333.33 a month leaves 0.01, collected with the
    // first installment along with the 25.00 fee: 358.34 + 333.33 + 333.33 = 1,025.00.
    const plan = amortise(100_000, { installments: 3, tinBasisPoints: 0, openingFeeBasisPoints: 250, differentialIsFirst: true });
    expect(plan.rows.map((row) => row.payment)).toEqual([35_834, 33_333, 33_333]);
    expect(plan.commonQuotaCents).toBe(33_333);
    expect(plan.differentialQuotaCents).toBe(35_834);
    expect(plan.openingFeeCents).toBe(2_500);
    expect(plan.totalInterestPaidCents).toBe(0);
    expect(plan.totalOwedCents).toBe(102_500);
  });

  it("applies the opening fee's floor", () => {
    expect(openingFeeCents(6_000, 250, 300)).toBe(300); // 2.5 % of 60.00 is 1.50, under the 3.00 floor
    expect(openingFeeCents(100_000, 250, 300)).toBe(2_500);
    expect(openingFeeCents(100_000, 0, 300)).toBe(0);
  });

  it("adds up to the cent for every amount and every product", () => {
    let checked = 0;
    for (const [agencyId, market] of CONFIGURED) {
      for (const product of providersFor(agencyId, market)) {
        for (const installments of product.installments) {
          for (const amount of sampleAmounts()) {
            const plan = amortise(amount, { ...product, installments });
            const { commonQuotaCents: common, differentialQuotaCents: differential } = plan;
            expect((installments - 1) * common + differential).toBe(amount + plan.totalInterestPaidCents + plan.openingFeeCents);
            expect(plan.totalOwedCents).toBe(amount + plan.totalInterestPaidCents + plan.openingFeeCents);
            expect(plan.rows.reduce((sum, row) => sum + row.interest, 0)).toBe(plan.totalInterestPaidCents);
            expect(plan.rows.reduce((sum, row) => sum + row.principal, 0)).toBe(amount);
            // Exactly one installment differs (or none does, when the rounding happened to be 0).
            const differing = product.differentialIsFirst ? 0 : installments - 1;
            plan.rows.forEach((row, k) => {
              expect(Number.isInteger(row.payment) && row.payment > 0).toBe(true);
              expect(row.payment).toBe(row.principal + row.interest + row.fee + row.adjustment);
              if (k !== differing) expect(row.payment).toBe(common);
              else expect(row.payment).toBe(differential);
            });
            // Each interest is on the principal actually owed, and the principal reaches 0.
            let owed = amount;
            for (const row of plan.rows) {
              expect(row.interest).toBe(Math.round((owed * product.tinBasisPoints) / 120_000));
              owed -= row.principal;
              expect(row.balance).toBe(owed);
            }
            expect(owed).toBe(0);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(1_000);
  });

  it("refuses amounts and terms that are not whole positive numbers", () => {
    expect(() => amortise(0, { installments: 3, tinBasisPoints: 0 })).toThrow(RangeError);
    expect(() => amortise(100.5, { installments: 3, tinBasisPoints: 0 })).toThrow(RangeError);
    expect(() => amortise(10_000, { installments: 0, tinBasisPoints: 0 })).toThrow(RangeError);
    expect(() => amortise(10_000, { installments: 3, tinBasisPoints: -1 })).toThrow(RangeError);
  });
});

describe("TAE", () => {
  it("is about 12.68 for a plain 12 % TIN loan: (1.01^12 − 1) · 100", () => {
    const plan = amortise(100_000, { installments: 12, tinBasisPoints: 1200 });
    expect(
      annualPercentageRate(
        100_000,
        plan.rows.map((row) => row.payment),
      ),
    ).toBe(12.68);
  });

  it("is 0 for 0 % without a fee, and positive for 0 % with a fee", () => {
    const free = amortise(100_000, { installments: 3, tinBasisPoints: 0 });
    expect(
      annualPercentageRate(
        100_000,
        free.rows.map((row) => row.payment),
      ),
    ).toBe(0);
    const withFee = amortise(100_000, { installments: 3, tinBasisPoints: 0, openingFeeBasisPoints: 250, differentialIsFirst: true });
    // Independently: 1000 = 358.34/(1+r) + 333.33/(1+r)^2 + 333.33/(1+r)^3 gives r ≈ 1.2600 %, TAE 16.22.
    expect(
      annualPercentageRate(
        100_000,
        withFee.rows.map((row) => row.payment),
      ),
    ).toBe(16.22);
  });

  it("is at least the TIN on every offer, and above it when there is a fee", () => {
    for (const [agencyId, market] of CONFIGURED) {
      for (const amount of sampleAmounts()) {
        for (const offer of computeOffers(agencyId, market, amount)) {
          expect(offer.tae).toBeGreaterThanOrEqual(offer.tin);
          if (offer.openingFeeCents > 0) expect(offer.tae).toBeGreaterThan(offer.tin);
          if (offer.tin === 0 && offer.openingFeeCents === 0) expect(offer.tae).toBe(0);
          if (offer.tin > 0 && offer.openingFeeCents === 0) expect(offer.tae).toBeLessThan(offer.tin * 1.1);
          expect(Math.round(offer.tae * 100) / 100).toBe(offer.tae);
        }
      }
    }
  });

  it("refuses payments that do not cover the amount", () => {
    expect(() => annualPercentageRate(100, [50, 49])).toThrow(RangeError);
  });
});

describe("the catalog", () => {
  it("has at least three providers for 101 in Spain, Spain being the default market", () => {
    expect(providersFor(101, "ESP").length).toBeGreaterThanOrEqual(3);
    expect(providersFor(101)).toBe(providersFor(101, DEFAULT_COUNTRY_CODE));
    expect(computeOffers(101, undefined, 100_000)).toEqual(computeOffers(101, "ESP", 100_000));
  });

  it("offers every installment count of 101/ESP through at least two providers, from 3 to 24", () => {
    const byCount = new Map<number, Set<string>>();
    for (const offer of computeOffers(101, "ESP", 100_000)) {
      byCount.set(offer.installments, (byCount.get(offer.installments) ?? new Set()).add(offer.providerId));
    }
    const counts = [...byCount.keys()];
    expect(Math.min(...counts)).toBe(3);
    expect(Math.max(...counts)).toBe(24);
    for (const [count, providers] of byCount) expect(providers.size, `${count} installments`).toBeGreaterThanOrEqual(2);
    // Some count has exactly two, so refusing all of them still leaves other counts (`+refuse_offer`).
    expect([...byCount.values()].some((providers) => providers.size === 2)).toBe(true);
  });

  it("has one or two providers in Portugal and none in other markets", () => {
    for (const agencyId of [101, 201]) {
      const n = providersFor(agencyId, "PRT").length;
      expect(n).toBeGreaterThanOrEqual(1);
      expect(n).toBeLessThanOrEqual(2);
      expect(providersFor(agencyId, "FRA")).toEqual([]);
      expect(computeOffers(agencyId, "FRA", 100_000)).toEqual([]);
    }
  });

  it("has no providers for 102 (Viajes Brisa), 103 (Viajes Cierzo) or an unknown agency", () => {
    expect(agencyHasProviders(101)).toBe(true);
    expect(agencyHasProviders(201)).toBe(true);
    for (const agencyId of [102, 103, 999]) {
      expect(agencyHasProviders(agencyId)).toBe(false);
      expect(marketsFor(agencyId)).toEqual([]);
      expect(computeOffers(agencyId, "ESP", 100_000)).toEqual([]);
    }
  });

  it("uses the advertised 60–5,000 EUR range and collects any fee with the first installment", () => {
    for (const [agencyId, market] of CONFIGURED) {
      for (const product of providersFor(agencyId, market)) {
        expect(product.minAmountCents).toBe(6_000);
        expect(product.maxAmountCents).toBe(500_000);
        if (product.openingFeeBasisPoints > 0) expect(product.differentialIsFirst).toBe(true);
        expect(product.provider.name).not.toMatch(/santander|bbva|caixa|sabadell|bankinter|cetelem|cofidis/i);
      }
    }
  });
});

describe("offers", () => {
  it("are empty outside 60–5,000 EUR, and present at both ends", () => {
    for (const amount of [1, 5_999, 500_001, 10_000_000]) expect(computeOffers(101, "ESP", amount)).toEqual([]);
    expect(computeOffers(101, "ESP", 6_000).length).toBeGreaterThan(0);
    expect(computeOffers(101, "ESP", 500_000).length).toBeGreaterThan(0);
    expect(() => computeOffers(101, "ESP", 100.5)).toThrow(RangeError);
  });

  it("are sorted by installments, then provider", () => {
    const offers = computeOffers(101, "ESP", 100_000);
    const keys = offers.map((offer) => [offer.installments, offer.companyName] as const);
    const sorted = [...keys].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    expect(keys).toEqual(sorted);
    expect(offers.slice(0, 3).map((offer) => offer.companyName)).toEqual(["Banca Nube", "Crédito Levante", "Financiera Olivo"]);
  });

  it("carry the schedule and its totals", () => {
    for (const offer of computeOffers(101, "ESP", 123_457)) {
      expect(offer.schedule).toHaveLength(offer.installments);
      expect(offer.schedule.reduce((sum, cents) => sum + cents, 0)).toBe(offer.totalOwedCents);
      expect(offer.totalOwedCents).toBe(offer.totalFinancedCents + offer.totalInterestPaidCents + offer.openingFeeCents);
      expect(offer.totalFinancedCents).toBe(123_457);
      expect(offer.schedule[offer.differentialIsFirst ? 0 : offer.installments - 1]).toBe(offer.differentialQuotaCents);
    }
  });

  it("show Banca Nube's hand-checked 0 % plan with its opening fee", () => {
    const nube = findOffer(101, "ESP", 100_000, offerId(101, "ESP", 3, 3));
    expect(nube).toMatchObject({
      companyName: "Banca Nube",
      tin: 0,
      tae: 16.22,
      commonQuotaCents: 33_333,
      differentialQuotaCents: 35_834,
      differentialIsFirst: true,
      openingFeeCents: 2_500,
      totalOwedCents: 102_500,
    });
    // At 60.00 the 3.00 floor applies: 23.00 + 20.00 + 20.00.
    expect(findOffer(101, "ESP", 6_000, offerId(101, "ESP", 3, 3))?.schedule).toEqual([2_300, 2_000, 2_000]);
  });

  it("have stable ids, unique within an agency and market", () => {
    for (const [agencyId, market] of CONFIGURED) {
      const first = computeOffers(agencyId, market, 100_000);
      const ids = first.map((offer) => offer.id);
      expect(new Set(ids).size).toBe(ids.length);
      // Same ids for another amount: GET shows them, POST /financing resolves them against the operation's amount.
      expect(computeOffers(agencyId, market, 250_033).map((offer) => offer.id)).toEqual(ids);
      expect(computeOffers(agencyId, market, 100_000)).toEqual(first);
    }
    // Readable: agency 101, market 1 (ESP), provider 2 (Crédito Levante), 12 installments.
    expect(offerId(101, "ESP", 2, 12)).toBe(1_011_212);
    expect(findOffer(101, "ESP", 100_000, 1_011_212)).toMatchObject({ companyName: "Crédito Levante", installments: 12 });
    expect(() => offerId(101, "FRA", 1, 12)).toThrow(RangeError);
  });

  it("are found by id, and not across agencies, markets or out-of-range amounts", () => {
    const offer = computeOffers(101, "ESP", 100_000)[0];
    expect(offer).toBeDefined();
    if (offer === undefined) return;
    expect(findOffer(101, "ESP", 100_000, offer.id)).toEqual(offer);
    expect(findOffer(101, "PRT", 100_000, offer.id)).toBeUndefined();
    expect(findOffer(201, "ESP", 100_000, offer.id)).toBeUndefined();
    expect(findOffer(102, "ESP", 100_000, offer.id)).toBeUndefined();
    expect(findOffer(101, "ESP", 5_000, offer.id)).toBeUndefined();
    expect(findOffer(101, "ESP", 100_000, 42)).toBeUndefined();
  });

  it("give other providers' offers with the same installment count as alternatives", () => {
    for (const offer of computeOffers(101, "ESP", 100_000)) {
      const alternatives = alternativesWithSameInstallments(101, "ESP", 100_000, offer.id);
      expect(alternatives.length).toBeGreaterThanOrEqual(1);
      for (const alternative of alternatives) {
        expect(alternative.installments).toBe(offer.installments);
        expect(alternative.providerId).not.toBe(offer.providerId);
        expect(alternative.id).not.toBe(offer.id);
      }
    }
    const levante12 = offerId(101, "ESP", 2, 12);
    expect(alternativesWithSameInstallments(101, "ESP", 100_000, levante12).map((offer) => offer.companyName)).toEqual([
      "Financiera Olivo",
    ]);
    expect(alternativesWithSameInstallments(101, "ESP", 100_000, 42)).toEqual([]);
  });
});

describe("wire offers", () => {
  it("pass financialOfferSchema and keep the extra fields", () => {
    for (const [agencyId, market] of CONFIGURED) {
      for (const offer of computeOffers(agencyId, market, 123_457)) {
        const wire = toWireOffer(offer);
        const parsed = financialOfferSchema.safeParse(JSON.parse(JSON.stringify(wire)));
        expect(parsed.success).toBe(true);
        expect(parsed.data).toEqual(wire);
        expect(parsed.data).toMatchObject({
          openingFee: offer.openingFeeCents / 100,
          totalAmountOwed: offer.totalOwedCents / 100,
          providerId: offer.providerId,
        });
      }
    }
  });

  it("write amounts as euros", () => {
    const offer = findOffer(101, "ESP", 100_000, offerId(101, "ESP", 3, 3));
    expect(offer).toBeDefined();
    if (offer === undefined) return;
    expect(JSON.parse(JSON.stringify(toWireOffer(offer)))).toEqual({
      id: 1_011_303,
      companyName: "Banca Nube",
      tae: 16.22,
      tin: 0,
      installments: 3,
      commonQuota: 333.33,
      differentialQuota: 358.34,
      differentialIsFirst: true,
      totalInterestPaid: 0,
      totalFinanced: 1000,
      openingFee: 25,
      totalAmountOwed: 1025,
      providerId: "banca-nube",
    });
  });
});
