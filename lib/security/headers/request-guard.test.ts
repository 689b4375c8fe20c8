import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hostileSegment } from "@/lib/testing/fuzz/values";
import { isSafeText } from "@/lib/validation/text";
import {
  checkActionForm,
  checkDeclaredLength,
  checkUrl,
  refusalResponse,
  refuseHostileRequest,
  unservedMethodAnswer,
} from "./request-guard";

describe("checkUrl", () => {
  it.each([
    "/checkout/%E0%A4%A",
    "/checkout/%ED%A0%80",
    "/api/checkout-sessions/%ED%A0%80",
    "/sandbox/v1/operations/%ED%A0%80/refund/details",
    "/checkout/%00",
    "/a/%",
  ])("refuses the path %s", (path) => {
    expect(checkUrl(path, "")).toMatchObject({ status: 400, field: "(path)" });
  });

  it("refuses a query that does not decode or holds control characters, in a name or a value", () => {
    expect(checkUrl("/api/badge", "?amount=%ED%BF%BF")).toMatchObject({ field: "(query)" });
    expect(checkUrl("/api/badge", "?%00=1")).toMatchObject({ field: "(query)" });
    expect(checkUrl("/api/badge", "?a=%E0%A4%A")).toMatchObject({ field: "(query)" });
  });

  it("lets ordinary URLs through, encoded Unicode and plus signs included", () => {
    expect(checkUrl("/checkout/cs_abc-DEF_123", "?lang=es&q=caf%C3%A9+con+leche&x=%F0%9F%98%80")).toBeUndefined();
    expect(checkUrl("/", "")).toBeUndefined();
  });

  it("lets through only segments that decode to safe text", () => {
    fc.assert(
      fc.property(hostileSegment, (segment) => {
        let decoded: string | undefined;
        try {
          decoded = decodeURIComponent(segment);
        } catch {
          decoded = undefined;
        }
        const refused = checkUrl(`/checkout/${segment}`, "") !== undefined;
        expect(refused).toBe(decoded === undefined || !isSafeText(decoded));
      }),
      { numRuns: 300 },
    );
  });
});

describe("checkDeclaredLength", () => {
  it("refuses a declared length over the surface's limit, the webhook's being the smallest", () => {
    expect(checkDeclaredLength("/api/webhooks/financing/t", "4097")).toMatchObject({ status: 413 });
    expect(checkDeclaredLength("/api/webhooks/financing/t", "4096")).toBeUndefined();
    expect(checkDeclaredLength("/api/checkout-sessions", String(10 * 1024 * 1024))).toMatchObject({ status: 413 });
    expect(checkDeclaredLength("/sandbox/v1/operations", "65537")).toMatchObject({ status: 413 });
    expect(checkDeclaredLength("/checkout/cs_x", null)).toBeUndefined();
  });
});

describe("checkActionForm", () => {
  const action = new Headers({ "next-action": "40ab", "content-type": "multipart/form-data; boundary=x" });
  const form = (root: string) => {
    const data = new FormData();
    data.set("0", root);
    return data;
  };

  it("accepts React's reply for a form action, with or without a previous state", () => {
    expect(checkActionForm(action, form('["$K1"]'))).toBeUndefined();
    expect(checkActionForm(action, form('[{"submission":1,"draft":{"city":"$$x"}},"$K1"]'))).toBeUndefined();
  });

  it("refuses what Next cannot decode or our actions cannot take", () => {
    for (const root of ['["$@1"]', '["$F1"]', '["$Q1","$K1"]', "not json", "[]", '["x",1]', "null", '[null,"$K1","$K1","$K1","$K1"]']) {
      expect(checkActionForm(action, form(root)), root).toMatchObject({ status: 400, field: "(form)" });
    }
    expect(checkActionForm(action, new FormData())).toMatchObject({ status: 400 });
    expect(checkActionForm(action, undefined)).toMatchObject({ status: 400 });
  });
});

describe("refuseHostileRequest", () => {
  const request = (init: { method?: string; path?: string; search?: string; headers?: Record<string, string> }) => ({
    method: init.method ?? "GET",
    headers: new Headers(init.headers),
    rawPathname: init.path ?? "/",
    rawSearch: init.search ?? "",
    pathname: init.path ?? "/",
  });
  const noBody = () => Promise.reject(new Error("not read"));

  it("answers each surface in its own format", async () => {
    const api = await refuseHostileRequest(request({ path: "/api/checkout-sessions/%ED%A0%80" }), noBody);
    expect(api?.status).toBe(400);
    expect(await api?.json()).toMatchObject({ error: { code: "validation_failed", fields: [{ field: "(path)" }] } });

    // Too large, declared: the code the API documents for a 413, as the route gives a chunked body.
    const tooLarge = await refuseHostileRequest(
      request({ method: "POST", path: "/api/checkout-sessions", headers: { "content-length": String(65 * 1024) } }),
      noBody,
    );
    expect(tooLarge?.status).toBe(413);
    expect(await tooLarge?.json()).toMatchObject({ error: { code: "payload_too_large", fields: [{ field: "(body)" }] } });

    const sandbox = await refuseHostileRequest(
      request({ method: "POST", path: "/sandbox/v1/operations", headers: { "content-length": "999999" } }),
      noBody,
    );
    expect(sandbox?.status).toBe(413);
    expect(await sandbox?.json()).toMatchObject({ error: "Payload Too Large", message: expect.any(String), timestamp: expect.any(String) });

    const page = await refuseHostileRequest(request({ path: "/checkout/%E0%A4%A" }), noBody);
    expect(page?.headers.get("content-type")).toContain("text/plain");
    expect(page?.headers.get("content-security-policy")).toContain("default-src 'none'");
  });

  it("refuses an action post that is no form, and one whose form cannot be parsed", async () => {
    const json = await refuseHostileRequest(
      request({ method: "POST", path: "/", headers: { "next-action": "40ab", "content-type": "application/json" } }),
      noBody,
    );
    expect(json?.status).toBe(400);
    const garbled = await refuseHostileRequest(
      request({ method: "POST", path: "/", headers: { "content-type": "multipart/form-data; boundary=x" } }),
      noBody,
    );
    expect(garbled?.status).toBe(400);
  });

  it("refuses an action post sent without a length whose body, as read, passes the limit: 413, not Next's 500", async () => {
    const boundary = "----x";
    const multipart = (value: string) =>
      new TextEncoder().encode(
        [`--${boundary}`, 'Content-Disposition: form-data; name="firstName"', "", value, `--${boundary}--`, ""].join("\r\n"),
      ).buffer as ArrayBuffer;
    const post = request({
      method: "POST",
      path: "/checkout/cs_abcdefghijkl",
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    });
    const tooLarge = await refuseHostileRequest(post, async () => multipart("a".repeat(100 * 1024)));
    expect(tooLarge?.status).toBe(413);
    expect(await tooLarge?.text()).toBe("The body is larger than 65536 bytes.\n");
    // Within the limit, the form is read from the same bytes and left to Next.
    expect(await refuseHostileRequest(post, async () => multipart("Ana"))).toBeUndefined();
  });

  it("lets ordinary requests through without reading their body", async () => {
    expect(
      await refuseHostileRequest(request({ method: "POST", path: "/api/checkout-sessions", headers: { "content-length": "300" } }), noBody),
    ).toBeUndefined();
    expect(await refuseHostileRequest(request({ path: "/checkout/cs_abcdefghijkl", search: "?lang=en" }), noBody)).toBeUndefined();
  });

  it("builds a refusal that names the part", async () => {
    const response = refusalResponse("/api/badge", { status: 400, field: "(query)", message: "The query contains control characters" });
    expect(await response.json()).toEqual({
      error: {
        code: "validation_failed",
        message: "The query contains control characters",
        fields: [{ field: "(query)", message: "The query contains control characters" }],
      },
    });
  });
});

describe("unservedMethodAnswer", () => {
  it.each(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])("leaves %s to the app", (method) => {
    expect(unservedMethodAnswer(method, "/checkout/cs_x")).toBeUndefined();
  });

  it.each(["TRACE", "TRACK", "CONNECT", "PROPFIND", "MKCOL", undefined])(
    "answers %s with 405, Allow and the security headers",
    (method) => {
      for (const url of ["/", "/checkout/cs_x?a=1", "/api/checkout-sessions", "/sandbox/v1/health", "*", "http://evil.example/"]) {
        const answer = unservedMethodAnswer(method, url)!;
        expect(answer.status, url).toBe(405);
        expect(answer.headers).toMatchObject({
          Allow: "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS",
          "Strict-Transport-Security": "max-age=63072000; includeSubDomains",
          "X-Content-Type-Options": "nosniff",
          "Referrer-Policy": "strict-origin-when-cross-origin",
          "X-Frame-Options": "DENY",
          "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
          "Cache-Control": "no-store",
        });
      }
    },
  );

  it("answers in each surface's error format", () => {
    expect(JSON.parse(unservedMethodAnswer("TRACE", "/api/checkout-sessions")!.body)).toEqual({
      error: { code: "method_not_allowed", message: "TRACE is not allowed here: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS" },
    });
    expect(JSON.parse(unservedMethodAnswer("TRACE", "/sandbox/v1/health", 0)!.body)).toMatchObject({
      error: "Method Not Allowed",
      timestamp: "1970-01-01T00:00:00.000Z",
    });
    const page = unservedMethodAnswer("TRACE", "/admin")!;
    expect(page.headers["Content-Type"]).toBe("text/plain; charset=utf-8");
    expect(page.body).toContain("TRACE is not allowed here");
  });
});
