import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mutated, nonObjectJson } from "@/lib/testing/fuzz/values";
import { validSessionBody } from "@/lib/testing/fuzz/valid-bodies";
import { createSessionSchema } from "./booking";

/*
 * `POST /api/checkout-sessions` answered 500 for a booking that was null or not an object (a
 * refine that ran on anything threw), and stored NULs and lone surrogates (PostgreSQL then threw).
 */
describe("createSessionSchema under hostile input", () => {
  it("accepts the valid body the generators start from", () => {
    expect(createSessionSchema.safeParse(validSessionBody).success).toBe(true);
  });

  it("refuses, never throws, when any one value is made hostile", () => {
    fc.assert(
      fc.property(mutated(validSessionBody), (body) => {
        const result = createSessionSchema.safeParse(body);
        expect(result.success).toBe(false);
        expect(result.error?.issues.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });

  it("refuses a body or booking that is not an object", () => {
    fc.assert(
      fc.property(nonObjectJson, (text) => {
        const value: unknown = JSON.parse(text);
        expect(createSessionSchema.safeParse(value).success).toBe(false);
        expect(createSessionSchema.safeParse({ ...validSessionBody, booking: value }).success).toBe(false);
        expect(
          createSessionSchema.safeParse({
            ...validSessionBody,
            booking: { ...validSessionBody.booking, flights: value, hotels: value, services: value },
          }).success,
        ).toBe(false);
      }),
      { numRuns: 100 },
    );
  });

  it("refuses a control character that trimming or URL parsing would have let through", () => {
    for (const [path, value] of [
      ["bookingReference", "BK-1\u000b"],
      ["returnUrl", "https://shop.example.com/b\u0000ack"],
      ["returnUrl", "https://shop.example.com/\ud800"],
    ] as const) {
      const body =
        path === "returnUrl"
          ? { ...validSessionBody, returnUrl: value }
          : { ...validSessionBody, booking: { ...validSessionBody.booking, bookingReference: value } };
      expect(createSessionSchema.safeParse(body).success, `${path} ${JSON.stringify(value)}`).toBe(false);
    }
  });

  it("names the field holding a control character", () => {
    const result = createSessionSchema.safeParse({ ...validSessionBody, customer: { firstName: "A\u0000na" } });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ["customer", "firstName"], message: "must not contain control characters" }),
    ]);
  });
});
