import { Socket } from "node:net";
import { IncomingMessage, ServerResponse } from "node:http";
import { stripInternalSearchParams } from "next/dist/server/internal-utils";
import { NextRequest } from "next/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { config, proxy } from "@/proxy";
import { nonceOf } from "./csp";
import { forgetFrameAncestors, frameAncestorsOf } from "./frame-ancestors";
import { PREPARED_HEADER } from "./page-headers";
import { preparePageRequest } from "./prepared-page";

/*
 * The HTTP server's fast path (lib/security/prepared-page.ts): which requests it prepares itself,
 * and that a page it prepares gets exactly the headers the proxy would have given it. That the
 * proxy then skips those requests, and that a client cannot send the marker, is proven on the built
 * app (e2e/security-headers.spec.ts).
 */

const SESSION = "cs_prepared_0000001";
const ORIGINS = ["https://agency.example", "https://www.agency.example"];

function get(url: string, headers: Record<string, string> = {}, method = "GET") {
  const request = new IncomingMessage(new Socket());
  request.method = method;
  request.url = url;
  request.headers = { host: "localhost:3000", ...headers };
  const response = new ServerResponse(request);
  return { request, response, prepared: preparePageRequest(request, response) };
}

/** A policy with its nonce replaced, to compare two responses' policies. */
function withoutNonce(policy: string | undefined): string | undefined {
  const nonce = policy === undefined ? undefined : nonceOf(policy);
  return nonce === undefined ? policy : policy!.replaceAll(nonce, "NONCE");
}

beforeEach(async () => {
  vi.stubEnv("NODE_ENV", "production");
  forgetFrameAncestors();
  await frameAncestorsOf(SESSION, { lookup: async () => ({ partnerId: "p_agency", origins: ORIGINS }) });
  await frameAncestorsOf("cs_unknown_000000", { lookup: async () => undefined });
});

afterEach(() => {
  vi.unstubAllEnvs();
  forgetFrameAncestors();
});

describe("the pages it prepares", () => {
  it("the shop: a fresh nonce and its policy for the page, the request id, never framed, and the marker the proxy skips", () => {
    const { request, response, prepared } = get("/", { "x-checkout-page": "/checkout/cs_forged_00000/offers?lang=en" });
    expect(prepared).toBe(true);
    const policy = response.getHeader("content-security-policy") as string;
    expect(policy).toContain(`'nonce-${request.headers["x-nonce"]}'`);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(request.headers["content-security-policy"]).toBe(policy);
    expect(response.getHeader("x-frame-options")).toBe("DENY");
    expect(response.getHeader("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(request.headers["x-request-id"]).toBe(response.getHeader("x-request-id"));
    expect(request.headers[PREPARED_HEADER]).toBe("1");
    expect(request.headers["x-checkout-page"], "a client's value is dropped").toBeUndefined();
    expect(get("/").request.headers["x-nonce"], "a fresh nonce each time").not.toBe(request.headers["x-nonce"]);
  });

  it("a known session's checkout pages: its partner's origins may frame them, and the layout gets the path and query", () => {
    for (const page of ["", "/offers", "/status"]) {
      const { request, response, prepared } = get(`/checkout/${SESSION}${page}?lang=en`, { "x-request-id": "agency-trace-0001" });
      expect(prepared, page).toBe(true);
      expect(response.getHeader("content-security-policy")).toContain(`frame-ancestors ${ORIGINS.join(" ")}`);
      expect(response.getHeader("x-frame-options")).toBeUndefined();
      expect(request.headers["x-checkout-page"]).toBe(`/checkout/${SESSION}${page}?lang=en`);
      expect(response.getHeader("x-request-id"), "a well-formed incoming id is kept").toBe("agency-trace-0001");
    }
  });

  it("gives exactly the headers the proxy gives the same request", async () => {
    for (const url of ["/", `/checkout/${SESSION}/offers?count=12&lang=en`, `/checkout/${SESSION}?_rsc=1x2y3&embed&q=a%20b`]) {
      const fast = get(url, { "x-request-id": "agency-trace-0002", "x-forwarded-proto": "https" });
      // The URL as Next's adapter gives it to the proxy (its internal `_rsc` parameter stripped).
      const viaProxy = await proxy(
        new NextRequest(stripInternalSearchParams(`http://localhost:3000${url}`), {
          headers: { "x-request-id": "agency-trace-0002", "x-forwarded-proto": "https" },
        }),
      );
      const forwarded = (name: string) => viaProxy.headers.get(`x-middleware-request-${name}`) ?? undefined;
      expect(fast.prepared).toBe(true);
      expect(forwarded("content-security-policy"), "the proxy hands the page its policy").toBeDefined();
      for (const name of ["content-security-policy", "x-frame-options", "x-request-id"]) {
        const proxied = viaProxy.headers.get(name) ?? undefined;
        expect(withoutNonce(fast.response.getHeader(name) as string | undefined), `${url}: response ${name}`).toBe(withoutNonce(proxied));
      }
      for (const name of ["content-security-policy", "x-request-id", "x-checkout-page"]) {
        expect(withoutNonce(fast.request.headers[name] as string | undefined), `${url}: request ${name}`).toBe(
          withoutNonce(forwarded(name)),
        );
      }
      expect(fast.response.getHeader("content-security-policy")).toContain("upgrade-insecure-requests");
      if (url !== "/") expect(fast.request.headers["x-checkout-page"]).toBe(forwarded("x-checkout-page"));
    }
  });
});

describe("what it leaves to the proxy", () => {
  it.each([
    ["a post", "/", {}, "POST"],
    ["another page", "/admin/login", {}, "GET"],
    ["a route handler", `/checkout/${SESSION}/status/data`, {}, "GET"],
    ["the sandbox", "/sandbox/pay/op_1", {}, "GET"],
    ["an unknown session (its not-found page)", "/checkout/cs_unknown_000000", {}, "GET"],
    ["a session not looked up yet", "/checkout/cs_not_looked_up_0/offers", {}, "GET"],
    ["a malformed id", "/checkout/nope/offers", {}, "GET"],
    ["a query the proxy refuses", "/?q=%zz", {}, "GET"],
    ["a query with control characters", `/checkout/${SESSION}?q=%00`, {}, "GET"],
    ["a body", "/", { "content-length": "12" }, "GET"],
    ["a chunked body", "/", { "transfer-encoding": "chunked" }, "GET"],
    ["an absolute-form URL", "http://localhost:3000/", {}, "GET"],
  ] as const)("%s", (_name, url, headers, method) => {
    const { request, response, prepared } = get(url, headers, method);
    expect(prepared).toBe(false);
    expect(request.headers[PREPARED_HEADER]).toBeUndefined();
    expect(request.headers["x-nonce"]).toBeUndefined();
    expect(response.getHeaderNames()).toEqual([]);
  });

  it("a session whose lookup expired (the proxy looks it up again)", async () => {
    forgetFrameAncestors();
    await frameAncestorsOf(SESSION, { lookup: async () => ({ partnerId: "p_agency", origins: ORIGINS }), now: Date.now() - 61_000 });
    expect(get(`/checkout/${SESSION}`).prepared).toBe(false);
  });

  it("everything in `next dev` (its own policy, with eval)", () => {
    vi.stubEnv("NODE_ENV", "development");
    expect(get("/").prepared).toBe(false);
  });

  it("the proxy's matcher skips exactly the marker this path sets", () => {
    expect(config.matcher).toEqual([{ source: expect.any(String), missing: [{ type: "header", key: PREPARED_HEADER }] }]);
  });
});
