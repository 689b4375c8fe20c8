import { describe, expect, it } from "vitest";
import { checkAgencyIds, checkDefaultReturnUrl, checkOrigins, checkPartnerId, checkPartnerName, checkRetentionDays } from "./settings";

describe("a partner's id", () => {
  it("is 3 to 40 lower-case letters, digits and inner hyphens", () => {
    for (const id of ["acme", "acme-travel", "a1b", "x".repeat(40)]) expect(checkPartnerId(id, [])).toEqual({ ok: true, value: id });
    expect(checkPartnerId("  acme  ", [])).toEqual({ ok: true, value: "acme" });
    for (const id of ["", "ab", "Acme", "-acme", "acme-", "ac--me", "acme travel", "acmé", "x".repeat(41), "../x", "acme_1"]) {
      expect(checkPartnerId(id, [])).toEqual({ ok: false, reason: "invalid" });
    }
  });

  it("is not one of the reserved ids", () => {
    expect(checkPartnerId("demo", ["demo", "demo-blue"])).toEqual({ ok: false, reason: "reserved" });
  });
});

describe("a partner's name", () => {
  it("is some text, without control characters, at most 100 characters", () => {
    expect(checkPartnerName(" Viajes Ñandú ")).toEqual({ ok: true, value: "Viajes Ñandú" });
    expect(checkPartnerName("   ")).toEqual({ ok: false, reason: "missing" });
    expect(checkPartnerName("x".repeat(101))).toEqual({ ok: false, reason: "too_long" });
    expect(checkPartnerName("a\u0000b")).toEqual({ ok: false, reason: "characters" });
  });
});

describe("allowed origins", () => {
  it("are origins, one a line, blank lines ignored, a trailing slash forgiven, duplicates dropped", () => {
    expect(checkOrigins("https://shop.acme.example\n\n  https://pay.acme.example:8443/ \nhttps://shop.acme.example", "production")).toEqual(
      {
        ok: true,
        value: ["https://shop.acme.example", "https://pay.acme.example:8443"],
      },
    );
    expect(checkOrigins("", "production")).toEqual({ ok: true, value: [] });
  });

  it("name the line of anything else: a path, a query, credentials, another scheme, not a URL", () => {
    for (const bad of [
      "https://acme.example/shop",
      "https://acme.example?x=1",
      "https://acme.example#top",
      "https://user:pw@acme.example",
      "ftp://acme.example",
      "javascript:alert(1)",
      "acme.example",
    ]) {
      expect(checkOrigins(`https://ok.example\n${bad}`, "sandbox")).toEqual({ ok: false, reason: "invalid", line: 2 });
    }
  });

  it("have a host name or an IP literal for host: a wildcard or a trailing dot is refused, naming the line", () => {
    for (const bad of [
      "https://*.example.com",
      "https://*",
      "https://shop*.example.com",
      "https://example.com.",
      "https://shop..example.com",
      "https://-shop.example.com",
      "https://shop_1.example.com",
      "https://%2A.example.com",
    ]) {
      expect(checkOrigins(`https://ok.example\n${bad}`, "sandbox"), bad).toEqual({ ok: false, reason: "host", line: 2 });
    }
    expect(
      checkOrigins("https://shop-1.example.com\nhttps://192.0.2.10:8443\nhttps://[2001:db8::1]\nhttp://localhost:3000", "sandbox"),
    ).toEqual({
      ok: true,
      value: ["https://shop-1.example.com", "https://192.0.2.10:8443", "https://[2001:db8::1]", "http://localhost:3000"],
    });
  });

  it("are https with the production API, but for this machine", () => {
    expect(checkOrigins("http://acme.example", "production")).toEqual({ ok: false, reason: "https_only", line: 1 });
    expect(checkOrigins("http://localhost:3000\nhttp://127.0.0.1:8080", "production").ok).toBe(true);
    expect(checkOrigins("http://acme.example", "sandbox").ok).toBe(true);
  });

  it("are at most 20", () => {
    const many = Array.from({ length: 21 }, (_, i) => `https://s${i}.acme.example`).join("\n");
    expect(checkOrigins(many, "production")).toEqual({ ok: false, reason: "too_many" });
  });
});

describe("the default return URL", () => {
  const origins = ["https://shop.acme.example"];
  it("is none when empty, else a URL on one of the allowed origins", () => {
    expect(checkDefaultReturnUrl("  ", origins)).toEqual({ ok: true, value: null });
    expect(checkDefaultReturnUrl("https://shop.acme.example/booking/done?from=pay", origins)).toEqual({
      ok: true,
      value: "https://shop.acme.example/booking/done?from=pay",
    });
    expect(checkDefaultReturnUrl("https://elsewhere.example/done", origins)).toEqual({ ok: false, reason: "not_allowed_origin" });
    expect(checkDefaultReturnUrl("https://shop.acme.example.evil.example/", origins)).toEqual({ ok: false, reason: "not_allowed_origin" });
    expect(checkDefaultReturnUrl("javascript:alert(1)", origins)).toEqual({ ok: false, reason: "invalid" });
    expect(checkDefaultReturnUrl("/relative", origins)).toEqual({ ok: false, reason: "invalid" });
    expect(checkDefaultReturnUrl(`https://shop.acme.example/${"x".repeat(2000)}`, origins)).toEqual({ ok: false, reason: "too_long" });
  });
});

describe("agency ids", () => {
  it("are positive whole numbers, separated by commas, spaces or lines, sorted and once each", () => {
    expect(checkAgencyIds("305, 101\n101 ;  7")).toEqual({ ok: true, value: [7, 101, 305] });
    expect(checkAgencyIds("")).toEqual({ ok: true, value: [] });
    for (const bad of ["0", "-1", "1.5", "abc", "01", "99999999999"]) expect(checkAgencyIds(bad)).toEqual({ ok: false, reason: "invalid" });
    expect(checkAgencyIds(Array.from({ length: 51 }, (_, i) => i + 1).join(","))).toEqual({ ok: false, reason: "too_many" });
  });
});

describe("a partner's retention period", () => {
  it("takes whole days from 1 to the ceiling", () => {
    expect(checkRetentionDays(" 90 ", 365)).toEqual({ ok: true, value: 90 });
    expect(checkRetentionDays("365", 365)).toEqual({ ok: true, value: 365 });
    expect(checkRetentionDays("366", 365)).toEqual({ ok: false, reason: "over_ceiling" });
    for (const bad of ["", "0", "-1", "1.5", "ninety", "1e3"])
      expect(checkRetentionDays(bad, 365)).toEqual({ ok: false, reason: "invalid" });
  });
});
