import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFinancingClient, type FinancingClient } from "@/lib/financing/client";
import type { FinancialOffer } from "@/lib/financing/types";
import { startSandboxServer } from "@/lib/sandbox/testing/servers";
import { BADGE_MAX_CENTS, BADGE_MIN_CENTS, createBadgeQuotes, parseAmountCents, quoteFromOffers } from "./badge";

const eur = (cents: number) => ({ cents, currency: "EUR" });

function offer(overrides: Partial<FinancialOffer> & Pick<FinancialOffer, "id" | "installments" | "commonQuota">): FinancialOffer {
  return {
    companyName: "Financiera Olivo",
    tae: 10,
    tin: 9.5,
    differentialQuota: overrides.commonQuota,
    differentialIsFirst: false,
    totalInterestPaid: eur(1000),
    totalFinanced: eur(100000),
    ...overrides,
  } as FinancialOffer;
}

describe("the installment badge", () => {
  it("reads amounts as decimals, to the cent", () => {
    expect(parseAmountCents("1234.50")).toBe(123450);
    expect(parseAmountCents("1234.5")).toBe(123450);
    expect(parseAmountCents("60")).toBe(6000);
    expect(parseAmountCents("0.07")).toBe(7);
    expect(parseAmountCents("1,234.50")).toBeUndefined();
    expect(parseAmountCents("12.345")).toBeUndefined();
    expect(parseAmountCents("-5")).toBeUndefined();
    expect(parseAmountCents("1e3")).toBeUndefined();
  });

  it("says 'from' the lowest regular installment, with its count; the example is the highest TAE's", () => {
    const offers = [
      offer({ id: 1, installments: 6, commonQuota: eur(17000), tae: 0 }),
      offer({ id: 2, installments: 24, commonQuota: eur(4650), tae: 10.4, companyName: "Crédito Levante" }),
      offer({ id: 3, installments: 18, commonQuota: eur(6100), tae: 13.2, differentialQuota: eur(6109) }),
    ];
    const quote = quoteFromOffers(offers, eur(100000));
    expect(quote).toMatchObject({ visible: true, installments: 24, monthly: eur(4650), companyName: "Crédito Levante" });
    if (!quote.visible) throw new Error("visible");
    expect(quote.example).toMatchObject({ offerId: 3, tae: 13.2, installments: 18, cashPrice: eur(100000) });
    expect(quote.exampleDiffering).toEqual({ amount: eur(6109), first: false });
    // A tie on the installment: the fewer installments.
    const tie = quoteFromOffers(
      [offer({ id: 4, installments: 12, commonQuota: eur(5000) }), offer({ id: 5, installments: 9, commonQuota: eur(5000) })],
      eur(45000),
    );
    expect(tie).toMatchObject({ installments: 9 });
  });

  it("is hidden outside 60-5,000 EUR and without an offer", () => {
    const offers = [offer({ id: 1, installments: 3, commonQuota: eur(2000) })];
    expect(quoteFromOffers(offers, eur(BADGE_MIN_CENTS - 1))).toEqual({ visible: false, reason: "out_of_range" });
    expect(quoteFromOffers(offers, eur(BADGE_MAX_CENTS + 1))).toEqual({ visible: false, reason: "out_of_range" });
    expect(quoteFromOffers(offers, eur(BADGE_MIN_CENTS)).visible).toBe(true);
    expect(quoteFromOffers(offers, eur(BADGE_MAX_CENTS)).visible).toBe(true);
    expect(quoteFromOffers([], eur(100000))).toEqual({ visible: false, reason: "no_offer" });
    expect(quoteFromOffers(offers, { cents: 100000, currency: "USD" })).toEqual({ visible: false, reason: "out_of_range" });
  });

  it("caches per partner, price and market for ten minutes; one call for concurrent misses; none out of range", async () => {
    let clock = 0;
    let calls = 0;
    const quotes = createBadgeQuotes({ now: () => clock });
    const simulate = async () => {
      calls += 1;
      return [offer({ id: 1, installments: 12, commonQuota: eur(9000 + calls) })];
    };
    const [a, b] = await Promise.all([
      quotes.quote("demo", eur(100000), "ESP", simulate),
      quotes.quote("demo", eur(100000), "ESP", simulate),
    ]);
    expect(calls).toBe(1);
    expect(a).toEqual(b);
    clock += 9 * 60_000;
    expect(await quotes.quote("demo", eur(100000), "ESP", simulate)).toEqual(a);
    expect(calls).toBe(1);
    await quotes.quote("demo-blue", eur(100000), "ESP", simulate);
    await quotes.quote("demo", eur(100001), "ESP", simulate);
    await quotes.quote("demo", eur(100000), "PRT", simulate);
    expect(calls).toBe(4);
    clock += 2 * 60_000;
    expect(await quotes.quote("demo", eur(100000), "ESP", simulate)).toMatchObject({ monthly: eur(9005) });
    expect(calls).toBe(5);
    expect(await quotes.quote("demo", eur(5000), "ESP", simulate)).toEqual({ visible: false, reason: "out_of_range" });
    expect(calls).toBe(5);
  });

  it("hides the badge while the partner API fails, and asks again after 30 seconds, not ten minutes", async () => {
    let clock = 0;
    let calls = 0;
    const quotes = createBadgeQuotes({ now: () => clock });
    const failing = async (): Promise<FinancialOffer[]> => {
      calls += 1;
      throw new Error("503");
    };
    expect(await quotes.quote("demo", eur(100000), "ESP", failing)).toEqual({ visible: false, reason: "unavailable" });
    clock += 20_000;
    await quotes.quote("demo", eur(100000), "ESP", failing);
    expect(calls).toBe(1);
    clock += 11_000;
    await quotes.quote("demo", eur(100000), "ESP", failing);
    expect(calls).toBe(2);
    // "No providers configured" is an answer, not an outage: kept like one.
    const noOffer = await quotes.quote("other", eur(100000), "ESP", failing, () => true);
    expect(noOffer).toEqual({ visible: false, reason: "no_offer" });
  });

  it("keeps at most maxEntries quotes", async () => {
    const quotes = createBadgeQuotes({ maxEntries: 2 });
    const simulate = async () => [offer({ id: 1, installments: 3, commonQuota: eur(2000) })];
    for (const cents of [10000, 20000, 30000]) await quotes.quote("demo", eur(cents), "ESP", simulate);
    expect(quotes.size()).toBe(2);
  });

  describe("against the sandbox", () => {
    let server: Awaited<ReturnType<typeof startSandboxServer>>;
    let client: FinancingClient;
    beforeAll(async () => {
      server = await startSandboxServer();
      client = createFinancingClient({ baseUrl: server.baseUrl, apiKey: "fk_test_sandbox_agency_101", sleep: async () => {} });
    });
    afterAll(async () => {
      await server?.close();
    });

    it("answers the simulation's lowest monthly installment, to the cent", async () => {
      const price = eur(123450);
      const { offers } = await client.simulate(price, { countryCode: "ESP" });
      const lowest = Math.min(...offers.map((o) => o.commonQuota.cents));
      const quote = await createBadgeQuotes().quote(
        "demo",
        price,
        "ESP",
        async () => (await client.simulate(price, { countryCode: "ESP" })).offers,
      );
      expect(quote).toMatchObject({ visible: true, monthly: eur(lowest) });
      // Agency 101's longest plans are 24 months: the lowest installment is one of them.
      expect(quote.visible && quote.installments).toBe(24);
    });
  });
});
