import { describe, expect, it } from "vitest";
import { embedContext, embedFields, embedFromForm, embedHref, isOrigin } from "./context";

const ALLOWED = ["https://agency.example", "http://127.0.0.1:3511"];

describe("embedded mode", () => {
  it("is on only for a parent origin among the partner's", () => {
    expect(embedContext({ embed: "https://agency.example" }, ALLOWED)).toEqual({ parentOrigin: "https://agency.example" });
    expect(embedContext({ embed: "http://127.0.0.1:3511", lang: "en" }, ALLOWED)).toEqual({
      parentOrigin: "http://127.0.0.1:3511",
      locale: "en",
    });
    expect(embedContext({ embed: "https://evil.example" }, ALLOWED)).toBeUndefined();
    expect(embedContext({ embed: "https://agency.example/" }, ALLOWED)).toBeUndefined();
    expect(embedContext({}, ALLOWED)).toBeUndefined();
    expect(embedContext({ embed: ["https://agency.example", "x"], lang: "de" }, ALLOWED)).toEqual({
      parentOrigin: "https://agency.example",
    });
  });

  it("knows an origin when it sees one", () => {
    expect(isOrigin("https://agency.example")).toBe(true);
    expect(isOrigin("http://localhost:3000")).toBe(true);
    expect(isOrigin("https://agency.example/shop")).toBe(false);
    expect(isOrigin("javascript:alert(1)")).toBe(false);
    expect(isOrigin("null")).toBe(false);
    expect(isOrigin(undefined)).toBe(false);
  });

  it("keeps the mode in the app's links and forms", () => {
    const embed = { parentOrigin: "https://agency.example", locale: "en" as const };
    expect(embedHref("/checkout/cs_1/offers", undefined)).toBe("/checkout/cs_1/offers");
    expect(embedHref("/checkout/cs_1/offers", embed)).toBe("/checkout/cs_1/offers?embed=https%3A%2F%2Fagency.example&lang=en");
    expect(embedHref("/checkout/cs_1/offers?notice=offer_gone", embed, { handoff: "1" })).toBe(
      "/checkout/cs_1/offers?notice=offer_gone&embed=https%3A%2F%2Fagency.example&lang=en&handoff=1",
    );
    expect(embedFields(embed)).toEqual({ embed: "https://agency.example", lang: "en" });
    expect(embedFields(undefined)).toEqual({});
    expect(embedFromForm("https://agency.example", "en")).toEqual(embed);
    expect(embedFromForm("nope", "en")).toBeUndefined();
  });
});
