import { describe, expect, it } from "vitest";
import { addMoney, amountFromCents, centsFromAmount, decimalFromCents, formatMoney, money } from "./money";

describe("money in exact cents", () => {
  it.each([
    [1234.5, 123450],
    [0.01, 1],
    [1.005, 101], // the API wrote 1.005: half rounds up, whatever the binary value
    [0.1 + 0.2, 30],
    [109.97, 10997],
    [5000, 500000],
    [-12.34, -1234],
    [-0.001, 0],
    [1e-7, 0],
  ])("%s is %i cents", (amount, cents) => {
    expect(centsFromAmount(amount)).toBe(cents);
  });

  it("refuses what is not a finite number", () => {
    expect(() => centsFromAmount(Number.NaN)).toThrow(RangeError);
    expect(() => centsFromAmount(Infinity)).toThrow(RangeError);
  });

  it("writes amounts back exactly", () => {
    expect(amountFromCents(123450)).toBe(1234.5);
    expect(JSON.stringify(amountFromCents(10997))).toBe("109.97");
    expect(decimalFromCents(123450)).toBe("1234.5");
    expect(decimalFromCents(123405)).toBe("1234.05");
    expect(decimalFromCents(6000)).toBe("60");
    expect(decimalFromCents(-5)).toBe("-0.05");
    expect(() => amountFromCents(1.5)).toThrow(RangeError);
  });

  it("adds without drift where floats drift", () => {
    const quota = money(centsFromAmount(0.1));
    let total = money(0);
    for (let i = 0; i < 1000; i++) total = addMoney(total, quota);
    expect(total.cents).toBe(10000);
    expect(() => addMoney(money(1, "EUR"), money(1, "USD"))).toThrow(/EUR to USD/);
  });

  it("formats for people", () => {
    expect(formatMoney(money(123450), "es-ES")).toMatch(/^1\.?234,50\s€$/);
    expect(formatMoney(money(123450), "en-GB")).toBe("€1,234.50");
  });
});
