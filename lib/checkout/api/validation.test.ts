import { z } from "zod";
import { describe, expect, it } from "vitest";
import { fieldErrorsOf, parseForApi } from "./validation";

/** The field errors `schema` answers for `input`, as the API words them. */
function refused(schema: z.ZodType, input: unknown) {
  const parsed = parseForApi(schema, input);
  expect(parsed.success).toBe(false);
  return parsed.success ? [] : fieldErrorsOf(parsed.error.issues);
}

describe("the checkout sessions API's words for a refused field", () => {
  const schema = z.strictObject({
    travellers: z.number().int().min(1).max(9).optional(),
    name: z.string().max(3).optional(),
    email: z.email().optional(),
    kind: z.enum(["flight", "hotel"]).optional(),
    items: z.array(z.string()).min(1).optional(),
    at: z.iso.datetime().optional(),
    code: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .optional(),
    amount: z.number(),
    url: z.url({ error: "must be an http or https URL" }).optional(),
  });

  it.each([
    [{ amount: 1, travellers: 0 }, "travellers", "must be at least 1"],
    [{ amount: 1, travellers: 10 }, "travellers", "must be at most 9"],
    [{ amount: 1, travellers: 1.5 }, "travellers", "must be a whole number"],
    [{ amount: "12" }, "amount", "must be a number"],
    [{}, "amount", "is required"],
    [{ amount: 1, name: "abcd" }, "name", "must have at most 3 characters"],
    [{ amount: 1, email: "nope" }, "email", "must be an e-mail address"],
    [{ amount: 1, kind: "train" }, "kind", 'must be one of "flight", "hotel"'],
    [{ amount: 1, items: [] }, "items", "must have at least 1 item"],
    [{ amount: 1, at: "yesterday" }, "at", expect.stringContaining("ISO 8601")],
    [{ amount: 1, code: "es" }, "code", "is not in the expected format"],
    [{ amount: 1, extra: true }, "extra", "is not a field of this request"],
  ])("%j: %s %s", (input, field, message) => {
    expect(refused(schema, input)).toEqual([{ field, message }]);
  });

  it("keeps a message the schema states itself", () => {
    expect(refused(schema, { amount: 1, url: "not a url" })).toEqual([{ field: "url", message: "must be an http or https URL" }]);
  });

  it("never passes on the validator's own wording", () => {
    const inputs = [{ travellers: 0, name: 12, email: "x", kind: 1, items: "x", at: 1, code: 1, amount: null, other: 1 }, null, "x", []];
    for (const input of inputs) {
      for (const { message } of refused(schema, input)) expect(message).not.toMatch(/Too (small|big)|Invalid|expected|received|>=|<=/);
    }
  });

  it("names the whole body when it is not an object", () => {
    expect(refused(schema, "x")).toEqual([{ field: "(body)", message: "must be an object" }]);
  });
});
