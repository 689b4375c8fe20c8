import { describe, expect, it } from "vitest";
import { contrastRatio, formatRatio, isHexColor, mix, parseHex, relativeLuminance, toHex } from "./contrast";

describe("contrast (WCAG 2.x)", () => {
  it("relative luminance: black 0, white 1, and a mid grey as the WCAG formula gives it", () => {
    expect(relativeLuminance("#000000")).toBe(0);
    expect(relativeLuminance("#ffffff")).toBeCloseTo(1, 10);
    // #777777: channel 119/255 = 0.4667 -> ((0.4667 + 0.055) / 1.055)^2.4 = 0.1845
    expect(relativeLuminance("#777777")).toBeCloseTo(0.1845, 4);
    // Green weighs most: pure green is far lighter than pure blue.
    expect(relativeLuminance("#00ff00")).toBeCloseTo(0.7152, 4);
    expect(relativeLuminance("#0000ff")).toBeCloseTo(0.0722, 4);
  });

  it("known pairs: black on white 21:1, #767676 on white 4.54:1 (the lightest grey that passes AA), #777777 fails", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 10);
    expect(contrastRatio("#767676", "#ffffff")).toBeCloseTo(4.54, 2);
    expect(contrastRatio("#767676", "#ffffff")).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio("#777777", "#ffffff")).toBeLessThan(4.5);
    // #949494 on white is the classic 3:1 boundary for large text and UI edges.
    expect(contrastRatio("#949494", "#ffffff")).toBeCloseTo(3.03, 2);
    // Order does not matter; a colour on itself is 1:1.
    expect(contrastRatio("#ffffff", "#767676")).toBe(contrastRatio("#767676", "#ffffff"));
    expect(contrastRatio("#0b5d4b", "#0b5d4b")).toBe(1);
    // A familiar brand pair: Tailwind's blue-700 under white text, 6.7:1.
    expect(contrastRatio("#1d4ed8", "#ffffff")).toBeCloseTo(6.7, 1);
  });

  it("formats ratios rounded down, so a failing ratio never reads as the threshold", () => {
    expect(formatRatio(4.499)).toBe("4.49:1");
    expect(formatRatio(2.1)).toBe("2.1:1");
    expect(formatRatio(21)).toBe("21:1");
    expect(formatRatio(contrastRatio("#767676", "#ffffff"))).toBe("4.54:1");
  });

  it("parses, writes and mixes #rrggbb colours", () => {
    expect(isHexColor("#0B5D4B")).toBe(true);
    expect(isHexColor("#fff")).toBe(false);
    expect(isHexColor("red")).toBe(false);
    expect(parseHex("#0b5d4b")).toEqual([11, 93, 75]);
    expect(toHex([11, 93, 75])).toBe("#0b5d4b");
    expect(mix("#000000", "#ffffff", 0.5)).toBe("#808080");
    expect(mix("#0b5d4b", "#ffffff", 0)).toBe("#0b5d4b");
    expect(mix("#0b5d4b", "#ffffff", 1)).toBe("#ffffff");
    expect(() => parseHex("#12345")).toThrow(RangeError);
  });
});
