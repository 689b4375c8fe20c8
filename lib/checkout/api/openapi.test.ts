import Ajv2020 from "ajv/dist/2020.js";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorStatus, type AppErrorCode } from "@/lib/app-error";
import type { Database } from "@/lib/db";
import type { CheckoutSessionRow } from "@/lib/db/schema";
import { generateDocument, jsonContent, routesToPaths, type JsonObject, type Route } from "@/lib/openapi/document";
import { openApi31Problems } from "@/lib/openapi/testing/validate";
import { createOpenApiChecker } from "@/lib/sandbox/testing/openapi-check";
import { apiErrorSchema, checkoutSessionSchema, SESSION_STATES } from "./api-schemas";
import { answerCheckoutApi } from "./api-route";
import { buildCheckoutApiDocument, withApiConventions } from "./openapi";
import { scopeOfOperation } from "./route-scopes";
import { handleCreateSession, handleGetSession } from "./sessions-api";
import { CURRENT_CHECKOUT_API_VERSION } from "./versions";
import { notificationPayload } from "../session/session-state";
import type { CheckoutContext } from "../session/flow";
import { DEMO_SECRET, sessionInput, testContext, unlimitedThrottles } from "../testing/context";

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
      "/checkout-sessions/{id}/erase",
      "/checkout-sessions/{id}/refund",
      "/events",
    ]);
    expect(Object.keys(doc.paths["/checkout-sessions"]!).sort()).toEqual(["get", "post"]);
    expect(Object.keys(doc.paths["/checkout-sessions/{id}"]!)).toEqual(["get"]);
    expect(Object.keys(doc.paths["/checkout-sessions/{id}/cancel"]!)).toEqual(["post"]);
    expect(Object.keys(doc.paths["/checkout-sessions/{id}/erase"]!)).toEqual(["post"]);
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
    expect(Object.keys(post.responses as object).sort()).toEqual([
      "200",
      "201",
      "400",
      "401",
      "403",
      "409",
      "413",
      "422",
      "429",
      "500",
      "503",
    ]);
    expect(Object.keys(get.responses as object).sort()).toEqual(["200", "400", "401", "403", "404", "429", "500", "503"]);
    expect(Object.keys(doc.paths["/events"]!.get!.responses as object).sort()).toEqual(["200", "400", "401", "403", "429", "500", "503"]);
    const statuses = (path: string, method: string) => Object.keys(doc.paths[path]![method]!.responses as object).sort();
    expect(statuses("/checkout-sessions", "get")).toEqual(["200", "400", "401", "403", "429", "500", "503"]);
    expect(statuses("/checkout-sessions/{id}/cancel", "post")).toEqual([
      "200",
      "400",
      "401",
      "403",
      "404",
      "409",
      "413",
      "422",
      "429",
      "500",
      "502",
      "503",
    ]);
    expect(statuses("/checkout-sessions/{id}/refund", "get")).toEqual([
      "200",
      "400",
      "401",
      "403",
      "404",
      "409",
      "429",
      "500",
      "502",
      "503",
    ]);
    expect(statuses("/checkout-sessions/{id}/refund", "post")).toEqual([
      "200",
      "400",
      "401",
      "403",
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
    // (With the Idempotency-Key's own codes, which every POST has.)
    expect(refusal("/checkout-sessions/{id}/cancel", "post", "409").sort()).toEqual(["idempotency_key_in_use", "not_cancellable"]);
    expect(refusal("/checkout-sessions/{id}/refund", "post", "409").sort()).toEqual([
      "conflict",
      "idempotency_key_in_use",
      "not_refundable",
      "refund_in_progress",
    ]);
    expect(refusal("/checkout-sessions/{id}/refund", "post", "422").sort()).toEqual(["idempotency_key_reused", "refund_rejected"]);

    const checker = createOpenApiChecker(doc);
    for (const [status, code] of Object.entries({ 400: "validation_failed", 409: "conflict", 413: "payload_too_large" })) {
      expect(errorStatus(code as AppErrorCode)).toBe(Number(status));
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

  // A schema both answered and notified is one schema: a generated client gets one type for it.
  it("has one schema for each resource, never an `…Output` twin of one", () => {
    expect(Object.keys(doc.components.schemas).filter((name) => name.endsWith("Output"))).toEqual([]);
    expect(doc.components.schemas.CheckoutSessionOperation).toMatchObject({ additionalProperties: false });
  });
});

/** An object of the document, following `$ref`s. */
function deref(node: unknown): JsonObject {
  let current = node as JsonObject;
  while (typeof current.$ref === "string") {
    current = current.$ref
      .slice(2)
      .split("/")
      .reduce<JsonObject>((at, token) => at[token] as JsonObject, doc as unknown as JsonObject);
  }
  return current;
}

const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ method, path, operation })),
);

describe("what every operation has (added as the document is built)", () => {
  it.each(operations.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))(
    "%s: Checkout-Api-Version on the request and on every answer, its 400, and Idempotency-Key on a POST",
    (_name, { method, path, operation }) => {
      const parameters = (operation.parameters as JsonObject[]).map(deref);
      const headers = parameters.filter((p) => p.in === "header").map((p) => [p.name, p.required ?? false]);
      expect(headers).toEqual(
        method === "post"
          ? [
              ["Checkout-Api-Version", false],
              ["Idempotency-Key", false],
            ]
          : [["Checkout-Api-Version", false]],
      );
      const responses = operation.responses as JsonObject;
      for (const [status, response] of Object.entries(responses)) {
        const answerHeaders = deref(response).headers as JsonObject;
        expect(deref(answerHeaders["Checkout-Api-Version"]), `${status}`).toMatchObject({
          required: true,
          schema: { enum: [CURRENT_CHECKOUT_API_VERSION] },
        });
        // A POST's answers that may be kept: not a refusal before the key (401, 403 for the secret's
        // scope, and an answer that is only the key's own 422), nor 429 or 5xx.
        const codes = deref(response)["x-error-codes"] as string[] | undefined;
        const keysOwn = codes !== undefined && codes.every((code) => code === "idempotency_key_reused");
        const replayable = method === "post" && /^[1-4]/.test(status) && !["401", "403", "429"].includes(status) && !keysOwn;
        expect(answerHeaders["Idempotent-Replayed"] !== undefined, `${status} Idempotent-Replayed`).toBe(replayable);
      }
      expect(deref(responses["400"])["x-error-codes"]).toContain("unsupported_api_version");
      // The scope it needs, said on the operation and by its 403.
      expect(deref(responses["403"])["x-error-codes"]).toEqual(["insufficient_scope"]);
      expect(operation["x-required-scope"]).toBe(scopeOfOperation(method, path));
      expect(operation.description).toContain(`\`${String(operation["x-required-scope"])}\``);
      if (method === "post") {
        expect(deref(responses["400"])["x-error-codes"]).toContain("validation_failed");
        expect(deref(responses["409"])["x-error-codes"]).toContain("idempotency_key_in_use");
        expect(deref(responses["422"])["x-error-codes"]).toContain("idempotency_key_reused");
      }
    },
  );

  it("are given to an operation added later, with no word of them in its own route", () => {
    // As another operation's route would be written: its own answers only.
    const later: Route[] = [
      {
        method: "post",
        path: "/checkout-sessions/{id}/cancel",
        operation: {
          operationId: "cancelCheckoutSession",
          requestParams: { path: z.object({ id: z.string().max(67) }) },
          responses: {
            "200": { description: "Cancelled.", content: jsonContent(checkoutSessionSchema) },
            "404": { description: "Not found.", "x-error-codes": ["not_found"], content: jsonContent(apiErrorSchema) },
          },
        },
      },
      { method: "get", path: "/events", operation: { operationId: "listEvents", responses: { "200": { description: "Events." } } } },
    ];
    const added = generateDocument({
      openapi: "3.1.0",
      info: { title: "t", version: "1" },
      paths: routesToPaths(later.map(withApiConventions())),
    });
    const cancel = added.paths["/checkout-sessions/{id}/cancel"]!.post!;
    expect(Object.keys(cancel.responses as object).sort()).toEqual(["200", "400", "403", "404", "409", "422"]);
    const names = (cancel.parameters as JsonObject[]).map((p) => (p.$ref as string | undefined) ?? p.name);
    expect(names).toEqual(["id", "#/components/parameters/CheckoutApiVersion", "#/components/parameters/IdempotencyKey"]);
    const events = added.paths["/events"]!.get!;
    expect(Object.keys(events.responses as object).sort()).toEqual(["200", "400", "403"]);
    expect(Object.keys((events.responses as Record<string, JsonObject>)["200"]!.headers as object)).toEqual(["Checkout-Api-Version"]);
  });
});

describe("the API's real answers with a version and Idempotency-Key", () => {
  let database: Database;
  let ctx: CheckoutContext;
  beforeAll(async () => {
    ({ ctx, database } = await testContext("http://127.0.0.1:9/v1"));
  });
  afterAll(async () => {
    await database?.close();
  });

  it("are what the document says, headers included", async () => {
    const throttles = unlimitedThrottles();
    const context = () => Promise.resolve(ctx);
    const create = (body: unknown, headers: Record<string, string>, before?: () => Promise<void>) =>
      answerCheckoutApi(
        new Request("http://localhost/api/checkout-sessions", {
          method: "POST",
          headers: { Authorization: `Bearer ${DEMO_SECRET}`, "Content-Type": "application/json", ...headers },
          body: JSON.stringify(body),
        }),
        { kind: "create", scope: "sessions:open" },
        async (request) => {
          await before?.();
          const { status, body: session } = await handleCreateSession(request, throttles, context);
          return Response.json(session, { status });
        },
        { context, throttles },
      );
    const read = (id: string, headers: Record<string, string>) =>
      answerCheckoutApi(
        new Request(`http://localhost/api/checkout-sessions/${id}`, { headers: { Authorization: `Bearer ${DEMO_SECRET}`, ...headers } }),
        { kind: "read", scope: "sessions:read" },
        async (request) => Response.json(await handleGetSession(request, id, throttles, context)),
        { context, throttles },
      );

    const checker = createOpenApiChecker(doc);
    const expectDocumented = async (method: string, path: string, response: Response, status: number, code?: string) => {
      const body = (await response.json()) as { id?: string; error?: { code: string } };
      expect(response.status, JSON.stringify(body)).toBe(status);
      if (code) expect(body.error?.code).toBe(code);
      expect(checker.check({ method, path, status, body, headers: response.headers }), JSON.stringify(body)).toEqual({ ok: true });
      return body;
    };

    const input = sessionInput();
    const created = await expectDocumented("POST", "/checkout-sessions", await create(input, { "Idempotency-Key": "doc-1" }), 201);
    const replayed = await create(input, { "Idempotency-Key": "doc-1", "Checkout-Api-Version": CURRENT_CHECKOUT_API_VERSION });
    expect(replayed.headers.get("Idempotent-Replayed")).toBe("true");
    await expectDocumented("POST", "/checkout-sessions", replayed, 201);
    const reused = await create(sessionInput(), { "Idempotency-Key": "doc-1" });
    await expectDocumented("POST", "/checkout-sessions", reused, 422, "idempotency_key_reused");
    await expectDocumented("POST", "/checkout-sessions", await create(input, { "Idempotency-Key": "é" }), 400, "validation_failed");
    const unknownVersion = await create(input, { "Checkout-Api-Version": "1.0" });
    await expectDocumented("POST", "/checkout-sessions", unknownVersion, 400, "unsupported_api_version");

    // A key in use: the first request holds it while the second comes.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const busyInput = sessionInput();
    const first = create(busyInput, { "Idempotency-Key": "doc-2" }, async () => {
      started();
      await held;
    });
    await running;
    await expectDocumented(
      "POST",
      "/checkout-sessions",
      await create(busyInput, { "Idempotency-Key": "doc-2" }),
      409,
      "idempotency_key_in_use",
    );
    release();
    await expectDocumented("POST", "/checkout-sessions", await first, 201);

    const path = `/checkout-sessions/${created.id}`;
    await expectDocumented("GET", path, await read(created.id!, { "Checkout-Api-Version": CURRENT_CHECKOUT_API_VERSION }), 200);
    await expectDocumented("GET", path, await read(created.id!, { "Checkout-Api-Version": "2099-01-01" }), 400, "unsupported_api_version");
  });
});
