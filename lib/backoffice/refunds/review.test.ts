import { describe, expect, it } from "vitest";
import { centsToInput, parseChargeCents, reviewRefund, type RefundBase } from "./review";

/** The sandbox's breakdown for a 1,234.50 EUR trip: reserve = price + 1.5 %, 2 % cancellation fee. */
const BASE: RefundBase = {
  currency: "EUR",
  totalReserveCents: 125302, // 123450 + 1852
  managementFeesCents: 1852,
  cancellationFeeCents: 2469,
  cancellationFeePercentage: 2,
  totalToRefundCents: 120981, // 125302 - 1852 - 2469
};

describe("refund charges as typed", () => {
  it("read a comma or a point before at most two decimals; empty is 0", () => {
    expect(parseChargeCents("")).toBe(0);
    expect(parseChargeCents("  ")).toBe(0);
    expect(parseChargeCents("25")).toBe(2500);
    expect(parseChargeCents("25,5")).toBe(2550);
    expect(parseChargeCents("25.50")).toBe(2550);
    expect(parseChargeCents("0,01")).toBe(1);
    expect(parseChargeCents(" 10.1 ")).toBe(1010);
  });

  it("refuse what is not an amount of cents", () => {
    for (const text of ["-5", "1.234,50", "1,234.50", "25.505", "abc", "25 €", "1e3", ".5", "25.", "0x10", "99999999999"]) {
      expect(parseChargeCents(text), text).toBeUndefined();
    }
  });

  it("write cents back for a form field", () => {
    expect(centsToInput(2550)).toBe("25.50");
    expect(centsToInput(5)).toBe("0.05");
  });
});

describe("the refund recomputed in cents", () => {
  it("is the API's total minus both charges, exact to the cent", () => {
    const review = reviewRefund(BASE, { agencyFee: "25,50", providerFee: "10.05", reason: "Trip cancelled by the customer" });
    expect(review).toEqual({
      ok: true,
      agencyFeeCents: 2550,
      providerFeeCents: 1005,
      chargesCents: 3555,
      totalToRefundCents: 117426,
      reason: "Trip cancelled by the customer",
    });
  });

  it("adds no float error over many cents (0.10 + 0.20 is 0.30)", () => {
    const review = reviewRefund({ ...BASE, totalToRefundCents: 30 }, { agencyFee: "0.10", providerFee: "0.20", reason: "" });
    expect(review).toMatchObject({ ok: true, totalToRefundCents: 0 });
  });

  it("with no charges is the API's own total", () => {
    expect(reviewRefund(BASE, { agencyFee: "", providerFee: "", reason: "" })).toMatchObject({
      ok: true,
      chargesCents: 0,
      totalToRefundCents: 120981,
    });
  });

  it("refuses charges above what can be refunded, but allows exactly all of it", () => {
    expect(reviewRefund(BASE, { agencyFee: "1209.81", providerFee: "", reason: "" })).toMatchObject({ ok: true, totalToRefundCents: 0 });
    expect(reviewRefund(BASE, { agencyFee: "1209.81", providerFee: "0.01", reason: "" })).toEqual({
      ok: false,
      errors: { agencyFee: "exceeds", providerFee: "exceeds" },
      totalToRefundCents: -1,
    });
    // Said on the charge entered, not on an empty one.
    expect(reviewRefund(BASE, { agencyFee: "", providerFee: "99999", reason: "" })).toMatchObject({
      ok: false,
      errors: { providerFee: "exceeds" },
    });
    expect(reviewRefund(BASE, { agencyFee: "", providerFee: "99999", reason: "" })).not.toHaveProperty("errors.agencyFee");
  });

  it("names each bad field", () => {
    expect(reviewRefund(BASE, { agencyFee: "x", providerFee: "-1", reason: "" })).toEqual({
      ok: false,
      errors: { agencyFee: "amount", providerFee: "amount" },
      totalToRefundCents: undefined,
    });
  });

  it("takes a reason of 255 characters, not 256 (the API's limit)", () => {
    expect(reviewRefund(BASE, { agencyFee: "", providerFee: "", reason: "a".repeat(255) }).ok).toBe(true);
    expect(reviewRefund(BASE, { agencyFee: "", providerFee: "", reason: "a".repeat(256) })).toMatchObject({
      ok: false,
      errors: { reason: "too_long" },
    });
  });
});
