import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { APP_ERROR_STATUS } from "@/lib/app-error";
import type { CheckoutSessionRow } from "@/lib/db/schema";
import { openApi31Problems } from "@/lib/openapi/testing/validate";
import { createOpenApiChecker } from "@/lib/sandbox/testing/openapi-check";
import { SESSION_STATES } from "./api-schemas";
import { buildCheckoutApiDocument } from "./openapi";
import { notificationPayload } from "../session/sessions";

const doc = buildCheckoutApiDocument({ serverUrl: "https://checkout.example.com/api" });

/** A schema of the document, with its components, as Ajv checks it. */
function schemaOf(ref: string) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  return ajv.compile({ $ref: ref, components: doc.components });
}

const session = (overrides: Partial<CheckoutSessionRow> = {}): CheckoutSessionRow =>
  ({
    id: "cs_3q8Zb1nX2mAbCdEfGh",
    partnerId: "p_1",
    bookingReference: "BK-2027-0001",
    operationId: null,
    operationStatus: null,
    operationUpdatedAt: null,
    expiresAt: new Date(Date.now() + 3_600_000),
    createdAt: new Date(),
    updatedAt: new Date(),
    ...overrides,
  }) as CheckoutSessionRow;

describe("the checkout sessions API's OpenAPI document", () => {
  it("names no partner secret unless told the sandbox's published demo secret", () => {
    expect(JSON.stringify(doc)).not.toContain("demo_partner_secret");
    const sandboxDoc = buildCheckoutApiDocument({ demoSecret: "demo_partner_secret_sandbox_only" });
    expect(sandboxDoc.info.description).toContain("`demo_partner_secret_sandbox_only`");
  });

  it("is valid OpenAPI 3.1, every Schema Object valid JSON Schema 2020-12", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(openApi31Problems(doc)).toEqual([]);
  });

  it("documents every operation, authenticated with the partner's bearer secret, on the given server", () => {
    expect(Object.keys(doc.paths).sort()).toEqual([
      "/checkout-sessions",
      "/checkout-sessions/{id}",
      "/checkout-sessions/{id}/cancel",
      "/checkout-sessions/{id}/refund",
      "/events",
    ]);
    expect(Object.keys(doc.paths["/checkout-sessions"]!).sort()).toEqual(["get", "post"]);
    expect(Object.keys(doc.paths["/checkout-sessions/{id}"]!)).toEqual(["get"]);
    expect(Object.keys(doc.paths["/checkout-sessions/{id}/cancel"]!)).toEqual(["post"]);
    expect(Object.keys(doc.paths["/checkout-sessions/{id}/refund"]!).sort()).toEqual(["get", "post"]);
    expect(Object.keys(doc.paths["/events"]!)).toEqual(["get"]);
    expect(doc.servers).toEqual([
      { url: "https://checkout.example.com/api", description: expect.stringMatching(/^This deployment: sandbox/), "x-internal": false },
    ]);
    expect(buildCheckoutApiDocument({ environment: "production" }).servers[0]?.description).toMatch(/^This deployment: production/);
    expect(doc.security).toEqual([{ PartnerSecret: [] }]);
    expect(doc.components.securitySchemes.PartnerSecret).toMatchObject({ type: "http", scheme: "bearer" });
  });

  it("lists every status each handler answers, each error in the API's format with codes of that status", () => {
    const post = doc.paths["/checkout-sessions"]!.post!;
    const get = doc.paths["/checkout-sessions/{id}"]!.get!;
    expect(Object.keys(post.responses as object).sort()).toEqual(["200", "201", "400", "401", "409", "413", "429", "500", "503"]);
    expect(Object.keys(get.responses as object).sort()).toEqual(["200", "400", "401", "404", "429", "500", "503"]);
    expect(Object.keys(doc.paths["/events"]!.get!.responses as object).sort()).toEqual(["200", "400", "401", "429", "500", "503"]);
    const statuses = (path: string, method: string) => Object.keys(doc.paths[path]![method]!.responses as object).sort();
    expect(statuses("/checkout-sessions", "get")).toEqual(["200", "400", "401", "429", "500", "503"]);
    expect(statuses("/checkout-sessions/{id}/cancel", "post")).toEqual([
      "200",
      "400",
      "401",
      "404",
      "409",
      "413",
      "429",
      "500",
      "502",
      "503",
    ]);
    expect(statuses("/checkout-sessions/{id}/refund", "get")).toEqual(["200", "400", "401", "404", "409", "429", "500", "502", "503"]);
    expect(statuses("/checkout-sessions/{id}/refund", "post")).toEqual([
      "200",
      "400",
      "401",
      "404",
      "409",
      "413",
      "422",
      "429",
      "500",
      "502",
      "503",
    ]);
    // Each refusal of a cancel or a refund says which state refused it.
    const refusal = (path: string, method: string, status: string) =>
      (doc.paths[path]![method]!.responses as Record<string, { "x-error-codes": string[] }>)[status]!["x-error-codes"];
    expect(refusal("/checkout-sessions/{id}/cancel", "post", "409")).toEqual(["not_cancellable"]);
    expect(refusal("/checkout-sessions/{id}/refund", "post", "409").sort()).toEqual(["conflict", "not_refundable", "refund_in_progress"]);
    expect(refusal("/checkout-sessions/{id}/refund", "post", "422")).toEqual(["refund_rejected"]);

    const checker = createOpenApiChecker(doc);
    for (const [status, code] of Object.entries({ 400: "validation_failed", 409: "conflict", 413: "payload_too_large" })) {
      expect(APP_ERROR_STATUS[code as keyof typeof APP_ERROR_STATUS]).toBe(Number(status));
      const body = {
        error: { code, message: "m", ...(code === "validation_failed" ? { fields: [{ field: "booking", message: "is required" }] } : {}) },
      };
      expect(checker.check({ method: "POST", path: "/checkout-sessions", status: Number(status), body })).toEqual({ ok: true });
    }
    // The error format is closed: a body in another format is not what the document promises.
    expect(checker.check({ method: "GET", path: "/checkout-sessions/x", status: 404, body: { message: "nope" } }).ok).toBe(false);
    expect(
      checker.check({ method: "GET", path: "/checkout-sessions/x", status: 401, body: { error: { code: "unauthorized", message: "m" } } }),
    ).toEqual({
      ok: true,
    });
  });

  it("describes the notification, its Standard Webhooks headers and a payload as the app writes it", () => {
    const notification = doc.webhooks.checkoutSessionNotification!.post!;
    const headers = (notification.parameters as { in: string; name: string; required?: boolean }[]).filter((p) => p.in === "header");
    expect(headers.map((header) => [header.name, header.required])).toEqual([
      ["webhook-id", true],
      ["webhook-timestamp", true],
      ["webhook-signature", true],
    ]);

    const validate = schemaOf("#/components/schemas/CheckoutSessionNotification");
    const opened = notificationPayload(session());
    const confirmed = notificationPayload(session({ operationId: "op_1", operationStatus: "CONFIRMED", operationUpdatedAt: new Date() }));
    for (const payload of [opened, confirmed]) expect(validate(payload), JSON.stringify(validate.errors)).toBe(true);
    // Every state may be notified, and nothing else.
    for (const state of SESSION_STATES) expect(validate({ ...opened, type: `checkout.session.${state}` })).toBe(true);
    expect(validate({ ...opened, type: "checkout.session.paid" })).toBe(false);
    expect(validate({ ...opened, data: { ...opened.data, state: "paid" } })).toBe(false);
  });
});
