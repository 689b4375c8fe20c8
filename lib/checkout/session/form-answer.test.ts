import { describe, expect, it } from "vitest";
import { FORM_ANSWER_COOKIE, openFormAnswer, sealFormAnswer } from "./form-answer";

const SESSION = "cs_0123456789abcdefghijklmn";
const OTHER = "cs_nmlkjihgfedcba9876543210";

describe("the details form's answer across a redirect", () => {
  const answer = { submission: 2, draft: { email: "ana.example.com", firstName: "Ana" }, errors: { email: "email" as const } };

  it("opens for its session as it was sealed, and holds nothing readable", () => {
    const sealed = sealFormAnswer(SESSION, answer);
    expect(openFormAnswer(SESSION, sealed)).toEqual(answer);
    // Personal data: not in the cookie's clear bytes.
    expect(sealed).not.toContain("ana");
    expect(sealed).not.toContain("Ana");
  });

  it("does not open for another session, altered, unsealed or absent", () => {
    const sealed = sealFormAnswer(SESSION, answer);
    expect(openFormAnswer(OTHER, sealed)).toBeUndefined();
    expect(openFormAnswer(SESSION, `${sealed.slice(0, -4)}AAAA`)).toBeUndefined();
    // A cookie a visitor wrote in clear is no answer of ours.
    expect(openFormAnswer(SESSION, JSON.stringify(answer))).toBeUndefined();
    expect(openFormAnswer(SESSION, undefined)).toBeUndefined();
    expect(openFormAnswer(SESSION, "")).toBeUndefined();
  });

  it("keeps a failure without fields, and leaves the typed values out rather than outgrow a cookie", () => {
    expect(openFormAnswer(SESSION, sealFormAnswer(SESSION, { submission: 1, failure: "unavailable" }))).toEqual({
      submission: 1,
      failure: "unavailable",
    });
    const huge = { submission: 1, draft: { address: "x".repeat(3000), city: "y".repeat(1000) }, errors: { address: "too_long" as const } };
    const sealed = sealFormAnswer(SESSION, huge);
    expect(`${FORM_ANSWER_COOKIE}=${sealed}`.length).toBeLessThan(3800);
    expect(openFormAnswer(SESSION, sealed)).toEqual({ submission: 1, errors: { address: "too_long" } });
  });
});
