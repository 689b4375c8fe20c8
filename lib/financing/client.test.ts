import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import { createFinancingClient, type FinancingClientOptions } from "./client";
import { parseRetryAfter } from "./partner-call";
import { ERROR_CODES, OPERATION_STATUSES, type ErrorCode } from "./contract";
import { money } from "./money";
import { createFetchDouble, json } from "./testing/fetch-double";
import { failure } from "./testing/failure";
import { sampleBooking } from "./testing/samples";
import type { CreateOperationInput } from "./types";

const BASE = "https://api.financer.example/v1";
const KEY = "fk_live_0123456789abcdef";

function setup(overrides: Partial<FinancingClientOptions> = {}) {
  const double = createFetchDouble();
  const sleep = vi.fn(async (_ms: number) => {});
  let n = 0;
  const client = createFinancingClient({
    baseUrl: BASE,
    apiKey: KEY,
    fetch: double.fetch,
    sleep,
    random: () => 0.5,
    requestId: () => `req-${++n}`,
    ...overrides,
  });
  return { client, double, sleep };
}

const wireOperation = {
  id: "op_1",
  operationNumber: 1001,
  externalId: "BK-1",
  status: "GENERATED",
  totalPrice: { amount: 1234.5, currency: "EUR" },
  totalReserve: { amount: 1300.1, currency: "EUR" },
  financingUrl: "https://pay.financer.example/f?operation=op_1&token=t",
};

const wireOffer = {
  id: 7,
  companyName: "Crédito Uno",
  tae: 13.8,
  tin: 12.5,
  installments: 12,
  commonQuota: 109.97,
  differentialQuota: 110.03,
  differentialIsFirst: true,
  totalInterestPaid: 85.2,
  totalFinanced: 1234.5,
  promoCode: "SUMMER",
};

const createInput: CreateOperationInput = sampleBooking({
  successRedirectUrl: "https://shop.example/ok",
  errorRedirectUrl: "https://shop.example/ko",
  webhookUrl: "https://shop.example/hook",
  hotels: [{ name: "Hotel Tejo", checkInDate: "2027-05-01", checkOutDate: "2027-05-05" }],
});

describe("every endpoint: method, path, headers, query and body", () => {
  it("health: GET /health with the key header and no agency header for an agency key", async () => {
    const { client, double } = setup();
    double.answer(json(200, { status: "UP", version: "1.8.0", timestamp: "2026-11-22T10:00:00Z", partnerCode: "P1" }));
    await expect(client.health()).resolves.toMatchObject({ status: "UP", version: "1.8.0", partnerCode: "P1" });
    expect(double.last).toMatchObject({ method: "GET", path: "/health", query: {}, body: undefined });
    expect(double.last.headers["x-service-api-key"]).toBe(KEY);
    expect(double.last.headers["x-service-agency"]).toBeUndefined();
    expect(double.last.headers["x-request-id"]).toBe("req-1");
    expect(double.last.headers.accept).toBe("application/json");
  });

  it("simulate: GET /financing/simulate/{totalPrice} with countryCode, amounts to exact cents", async () => {
    const { client, double } = setup();
    double.answer(json(200, { currency: "EUR", financialOffers: [wireOffer] }));
    const result = await client.simulate(money(123450), { countryCode: "PRT" });
    expect(double.last).toMatchObject({ method: "GET", path: "/financing/simulate/1234.5", query: { countryCode: "PRT" } });
    expect(result.currency).toBe("EUR");
    expect(result.offers[0]).toEqual({
      id: 7,
      companyName: "Crédito Uno",
      tae: 13.8,
      tin: 12.5,
      installments: 12,
      commonQuota: { cents: 10997, currency: "EUR" },
      differentialQuota: { cents: 11003, currency: "EUR" },
      differentialIsFirst: true,
      totalInterestPaid: { cents: 8520, currency: "EUR" },
      totalFinanced: { cents: 123450, currency: "EUR" },
      extra: { promoCode: "SUMMER" },
    });
  });

  it("simulate: no countryCode sends none (the API quotes Spain)", async () => {
    const { client, double } = setup();
    double.answer(json(200, { currency: "EUR", financialOffers: [] }));
    await client.simulate(money(6000));
    expect(double.last).toMatchObject({ path: "/financing/simulate/60", query: {} });
  });

  it("simulate: refuses an amount that is not above zero without calling", async () => {
    const { client, double } = setup();
    const error = await failure(client.simulate(money(0)));
    expect(error).toMatchObject({ kind: "invalid_request", fields: [{ field: "totalPrice" }] });
    expect(double.requests).toHaveLength(0);
  });

  it("createOperation: POST /operations with body dates as dd-MM-yyyy and the amount as a number", async () => {
    const { client, double } = setup();
    double.answer(json(201, wireOperation));
    const operation = await client.createOperation(createInput);
    expect(double.last).toMatchObject({ method: "POST", path: "/operations" });
    expect(double.last.headers["content-type"]).toBe("application/json");
    expect(double.last.body).toEqual({
      externalId: "BK-1",
      packageName: "Lisbon, 4 nights",
      packageTravel: true,
      travelersNumber: 2,
      totalPrice: 1234.5,
      successRedirectUrl: "https://shop.example/ok",
      errorRedirectUrl: "https://shop.example/ko",
      webhookUrl: "https://shop.example/hook",
      client: {
        ...createInput.client,
        documentValidityDate: "31-01-2030",
        birthDate: "04-07-1990",
      },
      flights: [{ origin: "MAD", destination: "LIS", departureDate: "01-05-2027", returnDate: "05-05-2027" }],
      hotels: [{ name: "Hotel Tejo", checkInDate: "01-05-2027", checkOutDate: "05-05-2027" }],
    });
    expect(operation).toEqual({
      id: "op_1",
      operationNumber: 1001,
      externalId: "BK-1",
      status: "GENERATED",
      totalPrice: { cents: 123450, currency: "EUR" },
      totalReserve: { cents: 130010, currency: "EUR" },
      financingUrl: wireOperation.financingUrl,
      updatedAt: undefined,
    });
  });

  it("createOperation: accepts 200 for the idempotent repeat", async () => {
    const { client, double } = setup();
    double.answer(json(200, wireOperation));
    await expect(client.createOperation(createInput)).resolves.toMatchObject({ id: "op_1" });
  });

  it("createOperation: names the bad fields and sends nothing", async () => {
    const { client, double } = setup();
    const error = await failure(
      client.createOperation({
        ...createInput,
        client: { ...createInput.client, email: "not-an-email", birthDate: "1990-02-30" },
        flights: [],
        hotels: [],
      }),
    );
    expect(error.kind).toBe("invalid_request");
    expect(error.fields.map((f) => f.field).sort()).toEqual(["client.birthDate", "client.email", "flights"]);
    expect(error.message).toContain("at least one flight, hotel or service");
    expect(error.message).not.toContain("not-an-email");
    expect(double.requests).toHaveLength(0);
  });

  it("listOperations: GET /operations with page, size, status and yyyy-MM-dd dates; a Spring page back", async () => {
    const { client, double } = setup();
    double.answer(
      json(200, {
        content: [{ ...wireOperation, status: "CONFIRMED", updatedAt: "2026-11-20T09:30:00Z" }],
        number: 2,
        size: 10,
        totalElements: 21,
        totalPages: 3,
        first: false,
        last: true,
        pageable: { pageNumber: 2 },
        empty: false,
      }),
    );
    const page = await client.listOperations({ page: 2, size: 10, status: "CONFIRMED", from: "2026-11-01", to: "2026-11-30" });
    expect(double.last).toMatchObject({
      method: "GET",
      path: "/operations",
      query: { page: "2", size: "10", status: "CONFIRMED", from: "2026-11-01", to: "2026-11-30" },
    });
    expect(page).toMatchObject({ number: 2, size: 10, totalElements: 21, totalPages: 3, first: false, last: true });
    expect(page.content[0]).toMatchObject({ id: "op_1", status: "CONFIRMED", updatedAt: "2026-11-20T09:30:00Z" });
  });

  it("listOperations: a size over 100 or a bad date is refused by name, nothing sent", async () => {
    const { client, double } = setup();
    const error = await failure(client.listOperations({ size: 101, from: "01-11-2026" }));
    expect(error.fields.map((f) => f.field).sort()).toEqual(["from", "size"]);
    expect(double.requests).toHaveLength(0);
  });

  it("getOperationByExternalId: the id is path-encoded", async () => {
    const { client, double } = setup();
    const { operationNumber: _omitted, ...byExternalId } = wireOperation;
    double.answer(json(200, { ...byExternalId, externalId: "BK 1/2" }));
    const operation = await client.getOperationByExternalId("BK 1/2");
    expect(double.last).toMatchObject({ method: "GET" });
    expect(double.last.url.pathname).toBe("/v1/operations/by-external-id/BK%201%2F2");
    expect(operation).toMatchObject({ externalId: "BK 1/2", operationNumber: undefined });
  });

  it("getOffers: GET /financing/{operationIdentifier}", async () => {
    const { client, double } = setup();
    double.answer(json(200, { currency: "EUR", financialOffers: [wireOffer] }));
    const offers = await client.getOffers("op_1");
    expect(double.last).toMatchObject({ method: "GET", path: "/financing/op_1" });
    expect(offers.offers).toHaveLength(1);
  });

  it("asks for uncompressed answers, through the default transport (a server that may compress)", async () => {
    const seen: (string | undefined)[] = [];
    const server = createServer((request, response) => {
      seen.push(request.headers["accept-encoding"]);
      const body = JSON.stringify({ currency: "EUR", financialOffers: [wireOffer] });
      // As a server that compresses when allowed (Next's, the sandbox's host, does).
      const gzip = /\bgzip\b/.test(request.headers["accept-encoding"] ?? "");
      response.writeHead(200, { "Content-Type": "application/json", ...(gzip ? { "Content-Encoding": "gzip" } : {}) });
      response.end(gzip ? gzipSync(body) : body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = createFinancingClient({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: "fk_test_key" });
      await expect(client.getOffers("op_1")).resolves.toMatchObject({ offers: [{ id: wireOffer.id }] });
      expect(seen).toEqual(["identity"]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("startFinancing: POST /financing; REQUESTED with a paymentUrl", async () => {
    const { client, double } = setup();
    double.answer(json(200, { financingStatus: "REQUESTED", paymentUrl: "https://provider.example/sign/1" }));
    await expect(client.startFinancing("op_1", 7)).resolves.toEqual({
      financingStatus: "REQUESTED",
      paymentUrl: "https://provider.example/sign/1",
    });
    expect(double.last).toMatchObject({
      method: "POST",
      path: "/financing",
      body: { operationIdentifier: "op_1", financialOfferId: 7 },
    });
  });

  it.each(["REFUSED", "ERROR"] as const)("startFinancing: %s with hasAlternativeFinancialOffers", async (status) => {
    const { client, double } = setup();
    double.answer(json(200, { financingStatus: status, paymentUrl: null, hasAlternativeFinancialOffers: true }));
    await expect(client.startFinancing("op_1", 7)).resolves.toEqual({
      financingStatus: status,
      paymentUrl: null,
      hasAlternativeFinancialOffers: true,
    });
  });

  it("cancelOperation: POST /operations/{id}/cancel with the reason; an empty answer is fine", async () => {
    const { client, double } = setup();
    double.answer(new Response(null, { status: 204 }), json(200, { ...wireOperation, status: "CANCELLED" }));
    await expect(client.cancelOperation("op_1", { reason: "customer changed plans" })).resolves.toEqual({
      operationId: "op_1",
      status: undefined,
    });
    expect(double.last).toMatchObject({ method: "POST", path: "/operations/op_1/cancel", body: { reason: "customer changed plans" } });
    await expect(client.cancelOperation("op_1")).resolves.toEqual({ operationId: "op_1", status: "CANCELLED" });
    expect(double.last.body).toEqual({});
  });

  it("cancelOperation: a reason over 255 characters is refused before sending", async () => {
    const { client, double } = setup();
    const error = await failure(client.cancelOperation("op_1", { reason: "x".repeat(256) }));
    expect(error.fields).toEqual([{ field: "reason", message: "must be at most 255 characters" }]);
    expect(double.requests).toHaveLength(0);
  });

  it("getRefundDetails: GET /operations/{id}/refund/details, money to cents", async () => {
    const { client, double } = setup();
    double.answer(
      json(200, {
        operationId: "op_1",
        totalReserve: { amount: 1300.1, currency: "EUR" },
        managementFees: { amount: 20, currency: "EUR" },
        fliinowCancellationFee: { amount: 26, currency: "EUR" },
        fliinowCancellationFeePercentage: 2,
        totalToRefund: { amount: 1254.1, currency: "EUR" },
      }),
    );
    const details = await client.getRefundDetails("op_1");
    expect(double.last).toMatchObject({ method: "GET", path: "/operations/op_1/refund/details" });
    expect(details).toEqual({
      operationId: "op_1",
      totalReserve: { cents: 130010, currency: "EUR" },
      managementFees: { cents: 2000, currency: "EUR" },
      serviceCancellationFee: { cents: 2600, currency: "EUR" },
      serviceCancellationFeePercentage: 2,
      totalToRefund: { cents: 125410, currency: "EUR" },
    });
  });

  it("refund: POST /operations/{id}/refund with the fees as numbers and the reason", async () => {
    const { client, double } = setup();
    double.answer(json(200, { ...wireOperation, status: "REFUNDED" }));
    const result = await client.refund("op_1", {
      agencyCancellationFee: money(5010),
      providerCancellationFee: money(1),
      reason: "trip cancelled",
    });
    expect(double.last).toMatchObject({
      method: "POST",
      path: "/operations/op_1/refund",
      body: { agencyCancellationFee: 50.1, providerCancellationFee: 0.01, reason: "trip cancelled" },
    });
    expect(result).toEqual({ operationId: "op_1", status: "REFUNDED" });
  });

  it("refund: a negative fee is refused by name", async () => {
    const { client } = setup();
    const error = await failure(client.refund("op_1", { agencyCancellationFee: money(-100) }));
    expect(error.fields.map((f) => f.field)).toEqual(["agencyCancellationFee"]);
  });

  it("acknowledgeWebhookEvent: PUT /operations/webhook-events/ack with the three fields", async () => {
    const { client, double } = setup();
    double.answer(new Response(null, { status: 200 }));
    await client.acknowledgeWebhookEvent({ operationIdentifier: "op_1", operationStatus: "CONFIRMED", eventId: 42 });
    expect(double.last).toMatchObject({
      method: "PUT",
      path: "/operations/webhook-events/ack",
      body: { operationIdentifier: "op_1", operationStatus: "CONFIRMED", eventId: 42 },
    });
  });

  it("listAgencies: GET /agencies", async () => {
    const { client, double } = setup();
    const agency = { id: 101, tradeName: "Viajes Aurora", address: "Gran Vía 1", postalCode: "28013", city: "Madrid", countryCode: "ESP" };
    double.answer(json(200, [agency]));
    await expect(client.listAgencies()).resolves.toEqual([agency]);
    expect(double.last).toMatchObject({ method: "GET", path: "/agencies" });
  });
});

describe("management group keys", () => {
  it("send the agency header on every call but GET /agencies, under the configured header names", async () => {
    const { client, double } = setup({ agencyId: 102, apiKeyHeader: "X-Maker-API-Key", agencyHeader: "X-Maker-Agency" });
    double.answer(
      json(200, []),
      json(200, { status: "UP", version: "1", timestamp: "2026-11-22T10:00:00Z", partnerCode: "G" }),
      new Response(null, { status: 200 }),
    );
    await client.listAgencies();
    expect(double.requests[0]!.headers["x-maker-agency"]).toBeUndefined();
    expect(double.requests[0]!.headers["x-maker-api-key"]).toBe(KEY);
    await client.health();
    expect(double.requests[1]!.headers["x-maker-agency"]).toBe("102");
    await client.acknowledgeWebhookEvent({ operationIdentifier: "op_1", operationStatus: "REFUSED", eventId: 1 });
    expect(double.requests[2]!.headers["x-maker-agency"]).toBe("102");
    expect(double.requests[2]!.headers["x-service-api-key"]).toBeUndefined();
  });
});

describe("conditional status reads", () => {
  const status = (s: string, updatedAt = "2026-11-22T10:00:00Z") => ({ operationId: "op_1", status: s, updatedAt });

  it("keeps the ETag, sends If-None-Match, and turns 304 into 'not modified' with the known status", async () => {
    const { client, double } = setup();
    double.answer(
      json(200, status("PENDING"), { ETag: '"PENDING-1795341600"', "Cache-Control": "max-age=60, must-revalidate" }),
      new Response(null, { status: 304, headers: { ETag: '"PENDING-1795341600"' } }),
      json(200, status("CONFIRMED", "2026-11-22T10:05:00Z"), { ETag: '"CONFIRMED-1795341900"' }),
    );

    const first = await client.getStatus("op_1");
    expect(double.last).toMatchObject({ method: "GET", path: "/operations/op_1/status" });
    expect(double.last.headers["if-none-match"]).toBeUndefined();
    expect(first).toEqual({ modified: true, status: status("PENDING"), etag: '"PENDING-1795341600"' });

    const second = await client.getStatus("op_1");
    expect(double.last.headers["if-none-match"]).toBe('"PENDING-1795341600"');
    expect(second).toEqual({ modified: false, status: status("PENDING"), etag: '"PENDING-1795341600"' });

    const third = await client.getStatus("op_1");
    expect(double.last.headers["if-none-match"]).toBe('"PENDING-1795341600"');
    expect(third).toMatchObject({ modified: true, status: { status: "CONFIRMED" }, etag: '"CONFIRMED-1795341900"' });
  });

  it("a 304 to a request that sent no ETag is an error, not a status", async () => {
    const { client, double } = setup();
    double.answer(new Response(null, { status: 304 }));
    const error = await failure(client.getStatus("op_1"));
    expect(error).toMatchObject({ kind: "http", status: 304 });
  });

  it("404 on an unknown operation", async () => {
    const { client, double } = setup();
    double.answer(json(404, { errorCode: "OPERATION_NOT_FOUND", message: "Operation not found" }));
    const error = await failure(client.getStatus("nope"));
    expect(error).toMatchObject({ kind: "business", status: 404, errorCode: "OPERATION_NOT_FOUND" });
  });

  it("accepts every status of the spec, FINISHED included", async () => {
    for (const s of OPERATION_STATUSES) {
      const { client, double } = setup();
      double.answer(json(200, status(s)));
      await expect(client.getStatus("op_1")).resolves.toMatchObject({ status: { status: s } });
    }
  });
});

describe("error bodies", () => {
  const codes = Object.entries(ERROR_CODES).flatMap(([code, statuses]) => statuses.map((status) => [code as ErrorCode, status] as const));

  it.each(codes)("business error %s (%i) keeps its code, status and request id", async (code, httpStatus) => {
    // One attempt: a 500 would otherwise be retried (see "retries").
    const { client, double } = setup({ maxAttempts: 1 });
    double.answer(json(httpStatus, { errorCode: code, message: `failed: ${code}` }));
    const error = await failure(client.getOffers("op_1"));
    expect(error).toMatchObject({ kind: "business", errorCode: code, status: httpStatus, requestId: "req-1" });
    expect(error.is(code)).toBe(true);
    expect(error.message).toContain(code);
  });

  it("OPERATION_NOT_CANCELLABLE carries the current status", async () => {
    const { client, double } = setup();
    double.answer(
      json(400, {
        errorCode: "OPERATION_NOT_CANCELLABLE",
        message: "Operation cannot be cancelled",
        additionalInfo: { operationStatus: "CLIENT_REQUESTED" },
      }),
    );
    const error = await failure(client.cancelOperation("op_1"));
    expect(error.operationStatus).toBe("CLIENT_REQUESTED");
    expect(error.additionalInfo).toEqual({ operationStatus: "CLIENT_REQUESTED" });
  });

  it("the authentication format (error_description)", async () => {
    const { client, double } = setup();
    double.answer(json(401, { error_description: "Invalid API key" }));
    const error = await failure(client.health());
    expect(error).toMatchObject({ kind: "auth", status: 401, errorCode: undefined });
    expect(error.message).toContain("Invalid API key");
  });

  it("the general format (error, message, timestamp)", async () => {
    const { client, double } = setup();
    double.answer(json(404, { error: "Not Found", message: "No route", timestamp: "2026-11-22T10:00:00Z" }));
    const error = await failure(client.health());
    expect(error).toMatchObject({ kind: "general", status: 404 });
    expect(error.message).toContain("Not Found");
  });

  it("a body in no known format is a plain HTTP error", async () => {
    const { client, double } = setup();
    double.answer(new Response("<html>Bad gateway</html>", { status: 403 }));
    const error = await failure(client.health());
    expect(error).toMatchObject({ kind: "http", status: 403, errorCode: undefined });
  });

  it("a response outside the contract names the field", async () => {
    const { client, double } = setup();
    double.answer(json(200, { currency: "EUR", financialOffers: [{ ...wireOffer, tae: "13.8" }] }));
    const error = await failure(client.getOffers("op_1"));
    expect(error.kind).toBe("contract");
    expect(error.fields.map((f) => f.field)).toEqual(["financialOffers.0.tae"]);
    expect(error.message).toContain("financialOffers.0.tae");
  });

  it("an unknown status is a contract error", async () => {
    const { client, double } = setup();
    double.answer(json(200, { operationId: "op_1", status: "SOMETHING", updatedAt: "2026-11-22T10:00:00Z" }));
    expect((await failure(client.getStatus("op_1"))).fields.map((f) => f.field)).toEqual(["status"]);
  });

  it("a body that is not JSON, or missing, is a contract error", async () => {
    const { client, double } = setup();
    double.answer(new Response("OK", { status: 200 }), new Response(null, { status: 200 }));
    expect(await failure(client.health())).toMatchObject({ kind: "contract" });
    expect(await failure(client.health())).toMatchObject({ kind: "contract", message: expect.stringContaining("empty body") });
  });

  it("never carries the API key or an e-mail address, even when the server echoes them", async () => {
    const { client, double } = setup();
    double.answer(
      json(400, {
        errorCode: "VALIDATION_ERROR",
        message: `client.email ana.garcia@example.com rejected for key ${KEY}`,
        additionalInfo: { field: "client.email", value: "ana.garcia@example.com" },
      }),
    );
    const error = await failure(client.startFinancing("op_1", 1));
    const logged = JSON.stringify(error) + error.message + String(error.stack);
    expect(logged).not.toContain(KEY);
    expect(logged).not.toContain("ana.garcia@example.com");
    expect(error.message).toContain("[email]");
    expect(error.additionalInfo).toEqual({ field: "client.email", value: "[email]" });
  });
});

describe("retries", () => {
  it("GET calls retry 500, 502, 503, 504 with full-jitter backoff, at most 3 attempts", async () => {
    for (const httpStatus of [500, 502, 503, 504]) {
      const { client, double, sleep } = setup();
      double.answer(json(httpStatus, {}), json(httpStatus, {}), json(200, { currency: "EUR", financialOffers: [] }));
      await expect(client.getOffers("op_1")).resolves.toEqual({ currency: "EUR", offers: [] });
      expect(double.requests).toHaveLength(3);
      // random() = 0.5: half of 200 ms, then half of 400 ms.
      expect(sleep.mock.calls).toEqual([[100], [200]]);
    }
  });

  it("gives up after the third attempt and reports the last answer", async () => {
    const { client, double } = setup();
    double.answer(
      json(503, {}),
      json(503, {}),
      json(500, { errorCode: "INTERNAL_ERROR", message: "boom" }),
      json(200, { currency: "EUR", financialOffers: [] }),
    );
    const error = await failure(client.simulate(money(10000)));
    expect(error).toMatchObject({ kind: "business", errorCode: "INTERNAL_ERROR", status: 500, attempts: 3 });
    expect(double.requests).toHaveLength(3);
  });

  it("honours Retry-After on 429", async () => {
    const { client, double, sleep } = setup();
    double.answer(json(429, {}, { "Retry-After": "2" }), json(200, [] as unknown[]));
    await client.listAgencies();
    expect(sleep).toHaveBeenCalledWith(2000);
  });

  it("does not wait out a Retry-After beyond the cap: the 429 is the answer", async () => {
    const { client, double, sleep } = setup();
    double.answer(json(429, {}, { "Retry-After": "120" }));
    const error = await failure(client.listAgencies());
    expect(error).toMatchObject({ status: 429, retryAfterSeconds: 120 });
    expect(sleep).not.toHaveBeenCalled();
  });

  it("retries network errors on safe calls", async () => {
    const { client, double } = setup();
    double.answer(new TypeError("fetch failed"), json(200, [] as unknown[]));
    await expect(client.listAgencies()).resolves.toEqual([]);
    expect(double.requests).toHaveLength(2);
  });

  it("retries POST /operations (idempotent per externalId) and the ack", async () => {
    const { client, double } = setup();
    double.answer(json(503, {}), json(201, wireOperation), new TypeError("fetch failed"), new Response(null, { status: 200 }));
    await client.createOperation(createInput);
    await client.acknowledgeWebhookEvent({ operationIdentifier: "op_1", operationStatus: "CONFIRMED", eventId: 1 });
    expect(double.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /operations",
      "POST /operations",
      "PUT /operations/webhook-events/ack",
      "PUT /operations/webhook-events/ack",
    ]);
  });

  it.each([
    ["POST /financing", (c: ReturnType<typeof setup>["client"]) => c.startFinancing("op_1", 1)],
    ["cancel", (c: ReturnType<typeof setup>["client"]) => c.cancelOperation("op_1")],
    ["refund", (c: ReturnType<typeof setup>["client"]) => c.refund("op_1")],
  ])("never retries %s, on a 503 or a network error", async (_name, act) => {
    const first = setup();
    first.double.answer(json(503, {}), json(200, {}));
    expect(await failure(act(first.client))).toMatchObject({ status: 503, attempts: 1 });
    expect(first.double.requests).toHaveLength(1);

    const second = setup();
    second.double.answer(new TypeError("fetch failed"), json(200, {}));
    expect(await failure(act(second.client))).toMatchObject({ kind: "network", attempts: 1 });
    expect(second.double.requests).toHaveLength(1);
  });

  it("does not retry a client error", async () => {
    const { client, double } = setup();
    double.answer(json(422, { errorCode: "NOT_ELIGIBLE_FOR_FINANCING", message: "no" }), json(200, {}));
    await failure(client.getOffers("op_1"));
    expect(double.requests).toHaveLength(1);
  });

  it("maxAttempts is capped at 3", async () => {
    const { client, double } = setup({ maxAttempts: 10 });
    double.answer(json(503, {}), json(503, {}), json(503, {}), json(503, {}));
    await failure(client.health());
    expect(double.requests).toHaveLength(3);
  });
});

describe("timeouts", () => {
  /** Answers only when the client gives up (the abort signal fires). */
  const hang = (request: { signal: AbortSignal | undefined }) =>
    new Promise<Response>((_resolve, reject) => {
      request.signal?.addEventListener("abort", () => reject(request.signal?.reason));
    });

  it("every attempt has a timeout; a safe call that keeps timing out fails as a timeout after 3 tries", async () => {
    const { client, double } = setup({ timeoutMs: 20 });
    double.answer(hang, hang, hang);
    const error = await failure(client.health());
    expect(error).toMatchObject({ kind: "timeout", attempts: 3, status: undefined });
    expect(error.message).toContain("timed out after 20 ms");
    expect(double.requests.every((r) => r.signal instanceof AbortSignal)).toBe(true);
  });

  it("an unsafe call that times out is not repeated", async () => {
    const { client, double } = setup({ timeoutMs: 20 });
    double.answer(hang, json(200, {}));
    expect(await failure(client.startFinancing("op_1", 1))).toMatchObject({ kind: "timeout", attempts: 1 });
    expect(double.requests).toHaveLength(1);
  });

  it("a body that never finishes also times out", async () => {
    const { client, double } = setup({ timeoutMs: 20, maxAttempts: 1 });
    double.answer(
      (request) =>
        new Response(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('{"status":'));
              request.signal?.addEventListener("abort", () => controller.error(request.signal?.reason));
            },
          }),
          { status: 200 },
        ),
    );
    expect(await failure(client.health())).toMatchObject({ kind: "timeout" });
  });
});

describe("the default transport (undici), on a real server", () => {
  type Handler = (request: IncomingMessage, response: ServerResponse) => void;
  /**
   * A client of a local server answering with `handler`; the server is closed after `run`. The
   * client's timeout is generous (10 s) for servers that answer: on a busy machine a loopback answer
   * can take longer than a short timeout, and the test would then read a timeout, not the answer. The
   * tests of servers that never answer pass a short one.
   */
  async function withServer(
    handler: Handler,
    run: (client: ReturnType<typeof createFinancingClient>) => Promise<void>,
    timeoutMs = 10_000,
  ) {
    const server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      await run(createFinancingClient({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: KEY, timeoutMs, maxAttempts: 1 }));
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it("sends the method, headers and body, and reads the answer's status, headers and body", async () => {
    const seen: { method?: string; url?: string; key?: string | string[]; type?: string; body?: string }[] = [];
    await withServer(
      (request, response) => {
        let body = "";
        request.on("data", (chunk: Buffer) => (body += chunk.toString()));
        request.on("end", () => {
          seen.push({
            method: request.method,
            url: request.url,
            key: request.headers["x-service-api-key"],
            type: request.headers["content-type"],
            body,
          });
          response
            .writeHead(200, { "Content-Type": "application/json" })
            .end(JSON.stringify({ financingStatus: "REQUESTED", paymentUrl: "https://provider.example/sign/1" }));
        });
      },
      async (client) => {
        await expect(client.startFinancing("op_1", 7)).resolves.toMatchObject({ financingStatus: "REQUESTED" });
      },
    );
    expect(seen).toEqual([
      {
        method: "POST",
        url: "/v1/financing",
        key: KEY,
        type: "application/json",
        body: JSON.stringify({ operationIdentifier: "op_1", financialOfferId: 7 }),
      },
    ]);
  });

  it("a server that never answers, or never finishes its body, is a timeout", async () => {
    await withServer(
      () => {},
      async (client) => expect(await failure(client.health())).toMatchObject({ kind: "timeout" }),
      200,
    );
    await withServer(
      (_request, response) => {
        response.writeHead(200, { "Content-Type": "application/json" });
        response.write('{"status":');
      },
      async (client) => expect(await failure(client.health())).toMatchObject({ kind: "timeout" }),
      200,
    );
  });

  it("a refused connection is a network failure, with the API key nowhere in it", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const client = createFinancingClient({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: KEY, maxAttempts: 1 });
    const error = await failure(client.health());
    expect(error).toMatchObject({ kind: "network", attempts: 1 });
    expect(JSON.stringify({ message: error.message, cause: String(error.cause) })).not.toContain(KEY);
  });

  it("a redirect is not followed: it is an answer outside the contract, and the key is not sent elsewhere", async () => {
    let requests = 0;
    await withServer(
      (_request, response) => {
        requests++;
        response.writeHead(302, { Location: "http://127.0.0.1:9/elsewhere" }).end();
      },
      async (client) => expect(await failure(client.getOffers("op_1"))).toMatchObject({ status: 302 }),
    );
    expect(requests).toBe(1);
  });

  it("a Retry-After on a 503 is read from the answer's headers", async () => {
    await withServer(
      (_request, response) => response.writeHead(503, { "Retry-After": "7", "Content-Type": "application/json" }).end("{}"),
      async (client) => expect(await failure(client.health())).toMatchObject({ status: 503, retryAfterSeconds: 7 }),
    );
  });
});

describe("parseRetryAfter", () => {
  it("reads seconds and HTTP dates", () => {
    const now = Date.parse("2026-11-22T10:00:00Z");
    expect(parseRetryAfter("3", now)).toBe(3000);
    expect(parseRetryAfter("Sun, 22 Nov 2026 10:00:05 GMT", now)).toBe(5000);
    expect(parseRetryAfter("Sun, 22 Nov 2026 09:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter("soon", now)).toBeUndefined();
  });
});
