import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { hostileString } from "@/lib/testing/fuzz/values";
import { isSafeText, safeString, safeText, textProblem } from "./text";

describe("textProblem", () => {
  it("finds control characters and lone surrogates, and nothing in ordinary text", () => {
    expect(textProblem("a\u0000b")).toBe("control_character");
    expect(textProblem("a\u007f")).toBe("control_character");
    expect(textProblem("\ud800x")).toBe("lone_surrogate");
    expect(textProblem("x\udc00")).toBe("lone_surrogate");
    expect(textProblem("García López, 3º — 😀 ñ")).toBeUndefined();
  });

  it("allows tab and line breaks only in multi-line text", () => {
    expect(textProblem("one\r\ntwo\tthree")).toBe("control_character");
    expect(textProblem("one\r\ntwo\tthree", { multiline: true })).toBeUndefined();
    expect(textProblem("one\u0000two", { multiline: true })).toBe("control_character");
  });

  it("refuses every generated hostile string, and accepts any other text", () => {
    fc.assert(
      fc.property(hostileString, (value) => {
        expect(isSafeText(value)).toBe(false);
      }),
      { numRuns: 300 },
    );
    // Any Unicode text (astral characters as surrogate pairs included) but the controls.
    const printable = fc.string({ unit: "grapheme" }).filter((value) => !/[\u0000-\u001f\u007f]/.test(value));
    fc.assert(
      fc.property(printable, (value) => {
        expect(isSafeText(value)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe("safeText", () => {
  it("names the field with the problem", () => {
    const result = z.object({ city: safeString() }).safeParse({ city: "Ma\u0000drid" });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([expect.objectContaining({ path: ["city"], message: "must not contain control characters" })]);
  });

  it("runs before trimming, so a control character at an end is refused, not cut", () => {
    expect(z.string().check(safeText()).trim().safeParse("Madrid\u0000").success).toBe(false);
    expect(z.string().check(safeText()).trim().safeParse("  Madrid ").data).toBe("Madrid");
  });
});
