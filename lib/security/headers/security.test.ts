import { afterEach, describe, expect, it } from "vitest";
import { newNonce, nonceOf, pageCsp, sandboxCsp, sanitizeOrigins } from "./csp";
import { forgetFrameAncestors, frameAncestorsOf, rememberFrameAncestors, type OriginsLookup } from "./frame-ancestors";
import { CHECKOUT_PATH } from "./page-headers";
import { isOwnOrigin, refusesCrossOriginPost } from "./origin";

describe("Content-Security-Policy", () => {
  it("a page's policy: the nonce for scripts and styles, strict-dynamic, frame-ancestors as given", () => {
    const policy = pageCsp({ nonce: "abc123==", frameAncestors: [], formAction: ["http://localhost:3000"], https: false });
    expect(policy).toBe(
      "default-src 'self'; script-src 'self' 'nonce-abc123==' 'strict-dynamic'; style-src 'self' 'nonce-abc123=='; img-src 'self' data: https:; " +
        "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self' http://localhost:3000; frame-ancestors 'none'",
    );
    const framed = pageCsp({
      nonce: "n",
      frameAncestors: ["https://agency.example", "https://www.agency.example"],
      formAction: [],
      https: true,
    });
    expect(framed).toContain("frame-ancestors https://agency.example https://www.agency.example");
    expect(framed).toContain("form-action 'self';");
    expect(framed.endsWith("; upgrade-insecure-requests")).toBe(true);
    expect(pageCsp({ nonce: "n", frameAncestors: [], formAction: [], https: false, development: true })).toContain("'unsafe-eval'");
    expect(nonceOf(policy)).toBe("abc123==");
  });

  it("the sandbox's pages: their one inline stylesheet, nothing else, never framed", () => {
    expect(sandboxCsp()).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'",
    );
  });

  it("nonces are fresh and unguessable (16 random bytes)", () => {
    const nonces = new Set(Array.from({ length: 100 }, newNonce));
    expect(nonces.size).toBe(100);
    for (const nonce of nonces) expect(atob(nonce)).toHaveLength(16);
  });

  it("only well-formed origins reach a header: a stored value cannot add a directive", () => {
    expect(
      sanitizeOrigins([
        "https://agency.example",
        "https://agency.example",
        "https://agency.example/path",
        "https://evil.example; script-src *",
        "javascript:alert(1)",
        "*",
        "https://*.agency.example",
        "https://agency.example.",
        42,
        "http://127.0.0.1:3511",
        "https://[2001:db8::1]:8443",
      ]),
    ).toEqual(["https://agency.example", "http://127.0.0.1:3511", "https://[2001:db8::1]:8443"]);
  });
});

describe("who may frame a checkout", () => {
  afterEach(() => forgetFrameAncestors());

  it("matches checkout paths only", () => {
    expect(CHECKOUT_PATH.exec("/checkout/cs_abcdefghij0123/offers")?.[1]).toBe("cs_abcdefghij0123");
    expect(CHECKOUT_PATH.exec("/checkout/cs_abcdefghij0123")?.[1]).toBe("cs_abcdefghij0123");
    expect(CHECKOUT_PATH.exec("/checkout/nope")).toBeNull();
    expect(CHECKOUT_PATH.exec("/admin/checkout/cs_abcdefghij0123")).toBeNull();
  });

  it("answers the session's partner's origins, caches them a minute, and forgets them on demand", async () => {
    let calls = 0;
    const lookup: OriginsLookup = async (id) => {
      calls += 1;
      return id === "cs_known_000000" ? { partnerId: "demo", origins: ["https://agency.example", "not an origin"] } : undefined;
    };
    expect(await frameAncestorsOf("cs_known_000000", { lookup, now: 0 })).toEqual(["https://agency.example"]);
    expect(await frameAncestorsOf("cs_known_000000", { lookup, now: 59_000 })).toEqual(["https://agency.example"]);
    expect(calls).toBe(1);
    expect(await frameAncestorsOf("cs_known_000000", { lookup, now: 61_000 })).toEqual(["https://agency.example"]);
    expect(calls).toBe(2);

    forgetFrameAncestors("other");
    await frameAncestorsOf("cs_known_000000", { lookup, now: 62_000 });
    expect(calls).toBe(2);
    forgetFrameAncestors("demo");
    await frameAncestorsOf("cs_known_000000", { lookup, now: 63_000 });
    expect(calls).toBe(3);

    // Unknown: none, remembered only briefly.
    expect(await frameAncestorsOf("cs_unknown_0000", { lookup, now: 0 })).toEqual([]);
    await frameAncestorsOf("cs_unknown_0000", { lookup, now: 6_000 });
    expect(calls).toBe(5);
  });

  it("takes a new session's origins from its creation: no lookup, for the minute", async () => {
    let calls = 0;
    const lookup: OriginsLookup = async () => {
      calls += 1;
      return { partnerId: "demo", origins: ["https://later.example"] };
    };
    rememberFrameAncestors("cs_new_00000000", { partnerId: "demo", origins: ["https://agency.example", "not an origin"] }, 0);
    expect(await frameAncestorsOf("cs_new_00000000", { lookup, now: 59_000 })).toEqual(["https://agency.example"]);
    expect(calls).toBe(0);
    expect(await frameAncestorsOf("cs_new_00000000", { lookup, now: 61_000 })).toEqual(["https://later.example"]);
    expect(calls).toBe(1);
  });

  it("fails closed: a lookup that throws means nobody may frame it", async () => {
    const lookup: OriginsLookup = async () => {
      throw new Error("database down");
    };
    expect(await frameAncestorsOf("cs_known_000000", { lookup, now: 0 })).toEqual([]);
  });
});

describe("form posts and server actions from other origins", () => {
  const APP_URL = "https://checkout.example";
  const headers = (origin: string | null, host = "checkout.example", extra: Record<string, string> = {}) =>
    new Headers({ host, ...(origin === null ? {} : { origin }), ...extra });

  it("accepts our own origin (the Host, a forwarded host, APP_URL's) and refuses any other on page routes", () => {
    expect(isOwnOrigin("https://checkout.example", headers(null), APP_URL)).toBe(true);
    expect(isOwnOrigin("http://10.0.0.5:3000", headers(null, "10.0.0.5:3000"), APP_URL)).toBe(true);
    expect(isOwnOrigin("https://pay.example", headers(null, "10.0.0.5:3000", { "x-forwarded-host": "pay.example" }), APP_URL, 1)).toBe(
      true,
    );
    expect(isOwnOrigin("https://evil.example", headers(null), APP_URL)).toBe(false);
    expect(isOwnOrigin("null", headers(null), APP_URL)).toBe(false);

    expect(refusesCrossOriginPost("POST", "/checkout/cs_x/offers", headers("https://evil.example"), APP_URL)).toBe(true);
    expect(refusesCrossOriginPost("POST", "/checkout/cs_x/offers", headers("https://checkout.example"), APP_URL)).toBe(false);
    expect(refusesCrossOriginPost("GET", "/checkout/cs_x", headers("https://evil.example"), APP_URL)).toBe(false);
    // Left to Next's own check: no Origin at all (not a browser's cross-site post).
    expect(refusesCrossOriginPost("POST", "/", headers(null), APP_URL)).toBe(false);
  });

  it("believes X-Forwarded-Host only behind a configured proxy", () => {
    const forged = headers("https://evil.example", "checkout.example", { "x-forwarded-host": "evil.example" });
    expect(isOwnOrigin("https://evil.example", forged, APP_URL)).toBe(false);
    expect(refusesCrossOriginPost("POST", "/checkout/cs_x/offers", forged, APP_URL)).toBe(true);
    expect(refusesCrossOriginPost("POST", "/checkout/cs_x/offers", forged, APP_URL, 0)).toBe(true);
    // Behind one proxy, the proxy writes it: the host the customer used.
    expect(refusesCrossOriginPost("POST", "/checkout/cs_x/offers", forged, APP_URL, 1)).toBe(false);
  });

  it("leaves the API and the sandbox alone: partners' backends, webhooks and the provider's forms post there", () => {
    expect(refusesCrossOriginPost("POST", "/api/checkout-sessions", headers("https://agency.example"), APP_URL)).toBe(false);
    expect(refusesCrossOriginPost("POST", "/sandbox/pay/financing", headers("https://provider.example"), APP_URL)).toBe(false);
    expect(refusesCrossOriginPost("POST", "/apix", headers("https://agency.example"), APP_URL)).toBe(true);
  });
});
