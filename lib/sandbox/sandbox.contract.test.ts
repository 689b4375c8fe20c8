/**
 * Contract tests: the `lib/financing` client against the sandbox over real HTTP (a loopback port),
 * for every endpoint, rule and error code of the spec, the triggers, the clock, the faults and
 * webhook delivery. Every answer the sandbox gives is also checked against its OpenAPI document.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createFinancingClient, type FinancingClient } from "@/lib/financing/client";
import { money } from "@/lib/financing/money";
import { failure } from "@/lib/financing/testing/failure";
import { SAMPLE_CLIENT, sampleBooking } from "@/lib/financing/testing/samples";
import { toWireCreateOperation, type CreateOperationInput } from "@/lib/financing/types";
import { EXPIRY_SECONDS } from "./operation";
import { buildOpenApiDocument } from "./openapi";
import { createOpenApiChecker } from "./testing/openapi-check";
import { startSandboxServer, startWebhookListener } from "./testing/servers";

const AGENCY_101 = "fk_test_sandbox_agency_101";
const AGENCY_201 = "fk_test_sandbox_agency_201";
const GROUP = "fk_test_sandbox_group_1";

type Server = Awaited<ReturnType<typeof startSandboxServer>>;
type Listener = Awaited<ReturnType<typeof startWebhookListener>>;

let server: Server;
let listener: Listener;
const seen: { method: string; path: string; status: number; body: unknown }[] = [];

/** A fetch that remembers every sandbox answer, to check them against the OpenAPI document. */
const recordingFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (url.pathname.startsWith("/sandbox/v1/")) {
    const text = await response.clone().text();
    seen.push({
      method: init?.method ?? "GET",
      path: url.pathname.slice("/sandbox/v1".length),
      status: response.status,
      body: text === "" ? undefined : JSON.parse(text),
    });
  }
  return response;
};

function client(key = AGENCY_101, extra: { agencyId?: number; timeoutMs?: number } = {}): FinancingClient {
  return createFinancingClient({ baseUrl: server.baseUrl, apiKey: key, fetch: recordingFetch, sleep: async () => {}, ...extra });
}

/** A raw call, for what the typed client refuses to send. */
async function raw(
  method: string,
  path: string,
  options: { key?: string | null; agency?: string; body?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { "Content-Type": "application/json", ...options.headers };
  if (options.key !== null) headers["X-Service-API-Key"] = options.key ?? AGENCY_101;
  if (options.agency) headers["X-Service-Agency"] = options.agency;
  const response = await recordingFetch(`${server.origin}/sandbox${path}`, { method, headers, body: options.body });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === "" ? undefined : (JSON.parse(text) as Record<string, unknown>),
  };
}

async function control(method: string, path: string, body?: unknown, key = AGENCY_101, agency?: string) {
  return raw(method, `/_control${path}`, { key, agency, body: body === undefined ? undefined : JSON.stringify(body) });
}

let counter = 0;
function booking(overrides: Partial<CreateOperationInput> & { email?: string } = {}): CreateOperationInput {
  const { email, ...rest } = overrides;
  counter += 1;
  return sampleBooking({
    externalId: `BK-${Date.now()}-${counter}`,
    webhookUrl: listener.url,
    client: { ...SAMPLE_CLIENT, email: email ?? SAMPLE_CLIENT.email },
    ...rest,
  });
}

/** An operation taken to CLIENT_REQUESTED with its first offer. */
async function requested(email?: string) {
  const api = client();
  const operation = await api.createOperation(booking({ email }));
  const { offers } = await api.getOffers(operation.id);
  const start = await api.startFinancing(operation.id, offers[0]!.id);
  return { api, operation, offers, start };
}

async function confirmed(email?: string) {
  const { api, operation } = await requested(email);
  expect((await control("POST", `/operations/${operation.id}/decision`, { decision: "approve" })).status).toBe(200);
  return { api, operation };
}

function webhooksFor(operationId: string) {
  return listener.received.filter((w) => w.body.operationIdentifier === operationId);
}

beforeAll(async () => {
  server = await startSandboxServer();
  listener = await startWebhookListener();
});

afterAll(async () => {
  await server?.close();
  await listener?.close();
});

beforeEach(() => listener.answerWith(200));
afterEach(async () => {
  await server.sandbox.engine.idle();
  await control("DELETE", "/faults");
  await control("DELETE", "/faults", undefined, GROUP);
});

describe("authentication", () => {
  it("401 with error_description when the key is missing, unknown or a production key", async () => {
    for (const key of [null, "fk_test_nope", "fk_live_sandbox_agency_101"]) {
      const answer = await raw("GET", "/v1/health", { key });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ error_description: expect.any(String) });
    }
    const error = await failure(client("fk_test_nope").health());
    expect(error).toMatchObject({ kind: "auth", status: 401 });
  });

  it("health answers for an agency key, with the API's clock", async () => {
    const health = await client().health();
    expect(health).toMatchObject({ status: "UP", version: "1.8.0", partnerCode: "AURORA" });
    expect(Math.abs(Date.parse(health.timestamp) - Date.now())).toBeLessThan(60_000);
  });

  it("a group key needs an active agency of its group in the agency header", async () => {
    const missing = await raw("GET", "/v1/health", { key: GROUP });
    expect(missing).toMatchObject({ status: 400, body: { errorCode: "VALIDATION_ERROR" } });
    expect(String(missing.body?.message)).toContain("X-Service-Agency");
    expect((await raw("GET", "/v1/health", { key: GROUP, agency: "103" })).status).toBe(403); // inactive
    expect((await raw("GET", "/v1/health", { key: GROUP, agency: "201" })).status).toBe(403); // not in the group
    await expect(client(GROUP, { agencyId: 101 }).health()).resolves.toMatchObject({ partnerCode: "GRUPO1" });
  });

  it("GET /agencies: group keys only, active agencies sorted by id, without the agency header", async () => {
    const agencies = await client(GROUP, { agencyId: 101 }).listAgencies();
    expect(agencies.map((a) => [a.id, a.tradeName])).toEqual([
      [101, "Viajes Aurora"],
      [102, "Viajes Brisa"],
    ]);
    expect((await failure(client().listAgencies())).status).toBe(403);
  });
});

describe("simulation", () => {
  it("offers for an amount, Spain by default, sorted by installments", async () => {
    const { currency, offers } = await client().simulate(money(100000));
    expect(currency).toBe("EUR");
    expect(offers.length).toBeGreaterThanOrEqual(6);
    expect(offers.map((o) => o.installments)).toEqual([...offers.map((o) => o.installments)].sort((a, b) => a - b));
    for (const offer of offers) {
      // Totals consistent to the cent: the schedule's sum is what is financed plus interest and fees.
      const fee = Math.round(Number(offer.extra.openingFee ?? 0) * 100);
      const owed = offer.commonQuota.cents * (offer.installments - 1) + offer.differentialQuota.cents;
      expect(owed).toBe(offer.totalFinanced.cents + offer.totalInterestPaid.cents + fee);
      expect(offer.installments).toBeGreaterThanOrEqual(3);
      expect(offer.installments).toBeLessThanOrEqual(24);
    }
    expect(offers.some((o) => o.tin === 0 && Number(o.extra.openingFee) > 0 && o.tae > 0)).toBe(true);
  });

  it("markets by countryCode; none outside the configured markets or the 60-5,000 EUR range", async () => {
    expect((await client().simulate(money(100000), { countryCode: "PRT" })).offers.length).toBeGreaterThan(0);
    expect((await client().simulate(money(100000), { countryCode: "FRA" })).offers).toEqual([]);
    expect((await client().simulate(money(5999))).offers).toEqual([]);
    expect((await client().simulate(money(500001))).offers).toEqual([]);
    expect((await client().simulate(money(6000))).offers.length).toBeGreaterThan(0);
  });

  it("400 VALIDATION_ERROR when the amount is not above zero", async () => {
    for (const amount of ["0", "-5", "abc"]) {
      expect(await raw("GET", `/v1/financing/simulate/${amount}`)).toMatchObject({ status: 400, body: { errorCode: "VALIDATION_ERROR" } });
    }
  });

  it("422 NO_FINANCIAL_COMPANIES_CONFIGURED for an agency without providers", async () => {
    const error = await failure(client(GROUP, { agencyId: 102 }).simulate(money(100000)));
    expect(error).toMatchObject({ status: 422, errorCode: "NO_FINANCIAL_COMPANIES_CONFIGURED" });
  });
});

describe("operations", () => {
  it("creates a GENERATED operation whose financingUrl carries its reference and a token", async () => {
    const operation = await client().createOperation(booking());
    expect(operation).toMatchObject({ status: "GENERATED", totalPrice: { cents: 123450, currency: "EUR" } });
    expect(operation.totalReserve.cents).toBeGreaterThanOrEqual(operation.totalPrice.cents);
    expect(operation.operationNumber).toEqual(expect.any(Number));
    const url = new URL(operation.financingUrl!);
    expect(url.searchParams.get("operation")).toBe(operation.id);
    expect(url.searchParams.get("token")).toMatch(/^\w{16,}$/);
  });

  it("is idempotent per externalId: the repeat returns the same operation (200)", async () => {
    const input = booking();
    const first = await client().createOperation(input);
    const again = await raw("POST", "/v1/operations", { body: JSON.stringify({ ...toWireCreateOperation(input) }) });
    expect(again.status).toBe(200);
    expect(again.body?.id).toBe(first.id);
  });

  it("50 concurrent creates with one externalId give one operation", async () => {
    const input = booking();
    const results = await Promise.all(Array.from({ length: 50 }, () => client().createOperation(input)));
    expect(new Set(results.map((o) => o.id)).size).toBe(1);
    expect((await client().getOperationByExternalId(input.externalId)).id).toBe(results[0]!.id);
  });

  it("the same externalId under another agency is another operation", async () => {
    const input = booking();
    const mine = await client().createOperation(input);
    const theirs = await client(AGENCY_201).createOperation(input);
    expect(theirs.id).not.toBe(mine.id);
  });

  it("400 VALIDATION_ERROR naming every bad field, and nothing is created", async () => {
    const body = {
      ...toWireCreateOperation(booking()),
      travelersNumber: "two",
      client: { ...toWireCreateOperation(booking()).client, email: "nope" },
      flights: [],
    };
    const answer = await raw("POST", "/v1/operations", { body: JSON.stringify(body) });
    expect(answer).toMatchObject({ status: 400, body: { errorCode: "VALIDATION_ERROR" } });
    const fields = (answer.body?.additionalInfo as { fields: { field: string }[] }).fields.map((f) => f.field);
    expect(fields).toEqual(expect.arrayContaining(["travelersNumber", "client.email", "flights"]));
    expect(String(answer.body?.message)).toContain("client.email");
    await expect(failure(client().getOperationByExternalId(body.externalId as string))).resolves.toMatchObject({ status: 404 });
    expect(await raw("POST", "/v1/operations", { body: "{not json" })).toMatchObject({
      status: 400,
      body: { errorCode: "VALIDATION_ERROR" },
    });
  });

  it("lists as a Spring Data page, with page, size, status and date filters", async () => {
    const api = client(AGENCY_201);
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await api.createOperation(booking()));
    await api.cancelOperation(created[0]!.id);

    const page0 = await api.listOperations({ page: 0, size: 2 });
    expect(page0).toMatchObject({ number: 0, size: 2, first: true, last: false });
    expect(page0.totalElements).toBeGreaterThanOrEqual(5);
    expect(page0.totalPages).toBe(Math.ceil(page0.totalElements / 2));
    const lastPage = await api.listOperations({ page: page0.totalPages - 1, size: 2 });
    expect(lastPage).toMatchObject({ last: true, first: false });

    const cancelled = await api.listOperations({ status: "CANCELLED", size: 100 });
    expect(cancelled.content.map((o) => o.id)).toContain(created[0]!.id);
    expect(cancelled.content.every((o) => o.status === "CANCELLED")).toBe(true);

    const today = new Date().toISOString().slice(0, 10);
    expect((await api.listOperations({ from: today, to: today, size: 100 })).totalElements).toBe(page0.totalElements);
    expect((await api.listOperations({ from: "2099-01-01" })).totalElements).toBe(0);
    expect((await api.listOperations({ to: "2000-01-01" })).content).toEqual([]);
  });

  it("400 VALIDATION_ERROR for a page size over 100 or a bad date", async () => {
    expect(await raw("GET", "/v1/operations?size=101")).toMatchObject({ status: 400, body: { errorCode: "VALIDATION_ERROR" } });
    expect(await raw("GET", "/v1/operations?from=01-01-2026")).toMatchObject({ status: 400, body: { errorCode: "VALIDATION_ERROR" } });
    expect(await raw("GET", "/v1/operations?page=-1")).toMatchObject({ status: 400 });
  });

  it("looks up by external id; 404 for unknown ones and for another agency's", async () => {
    const input = booking();
    const operation = await client().createOperation(input);
    await expect(client().getOperationByExternalId(input.externalId)).resolves.toMatchObject({ id: operation.id, status: "GENERATED" });
    expect(await failure(client().getOperationByExternalId("BK-unknown"))).toMatchObject({ status: 404, errorCode: "OPERATION_NOT_FOUND" });
    expect((await failure(client(AGENCY_201).getOperationByExternalId(input.externalId))).status).toBe(404);
  });

  it("403 for another account's operation; 404 OPERATION_NOT_FOUND for an unknown one", async () => {
    const operation = await client().createOperation(booking());
    expect(await failure(client(AGENCY_201).getOffers(operation.id))).toMatchObject({ status: 403 });
    expect(await failure(client(AGENCY_201).getStatus(operation.id))).toMatchObject({ status: 403 });
    expect(await failure(client().getOffers("op_missing"))).toMatchObject({ status: 404, errorCode: "OPERATION_NOT_FOUND" });
    // A group key acting for the owning agency sees it.
    await expect(client(GROUP, { agencyId: 101 }).getStatus(operation.id)).resolves.toMatchObject({ status: { status: "GENERATED" } });
  });

  it("unknown routes answer in the general error format", async () => {
    const answer = await raw("GET", "/v1/nothing-here");
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error: "Not Found", message: expect.any(String), timestamp: expect.any(String) });
  });
});

describe("financing", () => {
  it("GET /financing/{id}: the eligible offers, with ids that POST /financing takes", async () => {
    const { operation, offers, start } = await requested();
    expect(offers.length).toBeGreaterThan(0);
    expect(start).toEqual({ financingStatus: "REQUESTED", paymentUrl: expect.stringContaining("/sandbox/provider/checkout/") });
    const status = await client().getStatus(operation.id);
    expect(status.status.status).toBe("CLIENT_REQUESTED");
  });

  it("422 NOT_ELIGIBLE_FOR_FINANCING with +not_eligible", async () => {
    const operation = await client().createOperation(booking({ email: "ana+not_eligible@example.com" }));
    expect(await failure(client().getOffers(operation.id))).toMatchObject({ status: 422, errorCode: "NOT_ELIGIBLE_FOR_FINANCING" });
  });

  it("422 NOT_ELIGIBLE_FINANCIAL_OFFER for an offer that is not the operation's; 400 for a bad body", async () => {
    const operation = await client().createOperation(booking());
    expect(await failure(client().startFinancing(operation.id, 999))).toMatchObject({
      status: 422,
      errorCode: "NOT_ELIGIBLE_FINANCIAL_OFFER",
    });
    const bad = await raw("POST", "/v1/financing", { body: JSON.stringify({ operationIdentifier: operation.id, financialOfferId: "x" }) });
    expect(bad).toMatchObject({ status: 400, body: { errorCode: "VALIDATION_ERROR" } });
  });

  it("409 NOT_ACTIVE_OPERATION once financing is under way or over", async () => {
    const { api, operation, offers } = await requested();
    expect(await failure(api.startFinancing(operation.id, offers[0]!.id))).toMatchObject({
      status: 409,
      errorCode: "NOT_ACTIVE_OPERATION",
    });
  });

  it("+refuse_first: another provider with the same installment count takes over", async () => {
    const { operation, offers, start } = await requested("ana+refuse_first@example.com");
    expect(start.financingStatus).toBe("REQUESTED");
    const detail = await control("GET", `/operations/${operation.id}`);
    const financing = detail.body?.financing as { companyName: string; installments: number };
    expect(financing.installments).toBe(offers[0]!.installments);
    expect(financing.companyName).not.toBe(offers[0]!.companyName);
  });

  it.each([
    ["+refuse_offer", "refuse_offer", "REFUSED"],
    ["+error_offer", "error_offer", "ERROR"],
  ] as const)("%s: %s with alternatives; the offers are fetched again without that count", async (_name, tag, financingStatus) => {
    const api = client();
    const operation = await api.createOperation(booking({ email: `ana+${tag}@example.com` }));
    const before = await api.getOffers(operation.id);
    const chosen = before.offers[0]!;
    await expect(api.startFinancing(operation.id, chosen.id)).resolves.toEqual({
      financingStatus,
      paymentUrl: null,
      hasAlternativeFinancialOffers: true,
    });
    const after = await api.getOffers(operation.id);
    expect(after.offers.some((o) => o.installments === chosen.installments)).toBe(false);
    expect(after.offers.length).toBeGreaterThan(0);
    expect(["GENERATED", "PENDING"]).toContain((await api.getStatus(operation.id)).status.status);
    // An alternative with another installment count is accepted.
    await expect(api.startFinancing(operation.id, after.offers[0]!.id)).resolves.toMatchObject({ financingStatus: "REQUESTED" });
  });

  it("+refuse_all: REFUSED without alternatives, the operation ends REFUSED", async () => {
    const { operation, start } = await requested("ana+refuse_all@example.com");
    expect(start).toEqual({ financingStatus: "REFUSED", paymentUrl: null, hasAlternativeFinancialOffers: false });
    expect((await client().getStatus(operation.id)).status.status).toBe("REFUSED");
  });

  it("+error: financingStatus ERROR and the operation goes to ERROR", async () => {
    const { operation, start } = await requested("ana+error@example.com");
    expect(start).toMatchObject({ financingStatus: "ERROR", paymentUrl: null });
    expect((await client().getStatus(operation.id)).status.status).toBe("ERROR");
  });

  it("control decisions: approve -> CONFIRMED (through FAVORABLE), decline -> REFUSED, error -> ERROR", async () => {
    for (const [decision, status] of [
      ["approve", "CONFIRMED"],
      ["decline", "REFUSED"],
      ["error", "ERROR"],
    ] as const) {
      const { operation } = await requested();
      expect((await control("POST", `/operations/${operation.id}/decision`, { decision })).status).toBe(200);
      expect((await client().getStatus(operation.id)).status.status).toBe(status);
    }
    const { operation } = await confirmed();
    const history = (await control("GET", `/operations/${operation.id}`)).body?.history as { status: string }[];
    expect(history.map((h) => h.status)).toEqual(["GENERATED", "CLIENT_REQUESTED", "FAVORABLE", "CONFIRMED"]);
  });
});

describe("status", () => {
  it('ETag "STATUS-epochSeconds", Cache-Control, and 304 on a matching If-None-Match', async () => {
    const operation = await client().createOperation(booking());
    const first = await raw("GET", `/v1/operations/${operation.id}/status`);
    const etag = first.headers.get("ETag")!;
    expect(etag).toMatch(/^"GENERATED-\d{10}"$/);
    expect(Number(etag.slice(11, -1))).toBe(Math.floor(Date.parse(String(first.body?.updatedAt)) / 1000));
    expect(first.headers.get("Cache-Control")).toBe("max-age=60, must-revalidate");
    const again = await raw("GET", `/v1/operations/${operation.id}/status`, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.body).toBeUndefined();
  });

  it("the client's conditional reads: 304 becomes 'not modified', a change comes through", async () => {
    const api = client();
    const operation = await api.createOperation(booking());
    expect(await api.getStatus(operation.id)).toMatchObject({ modified: true, status: { status: "GENERATED" } });
    expect(await api.getStatus(operation.id)).toMatchObject({ modified: false, status: { status: "GENERATED" } });
    await api.cancelOperation(operation.id);
    expect(await api.getStatus(operation.id)).toMatchObject({ modified: true, status: { status: "CANCELLED" } });
  });

  it("404 for an unknown operation", async () => {
    expect(await failure(client().getStatus("op_unknown"))).toMatchObject({ status: 404 });
  });
});

describe("cancel", () => {
  it("GENERATED, PENDING and ERROR can be cancelled", async () => {
    const generated = await client().createOperation(booking());
    await expect(client().cancelOperation(generated.id, { reason: "changed plans" })).resolves.toEqual({
      operationId: generated.id,
      status: "CANCELLED",
    });
    const history = (await control("GET", `/operations/${generated.id}`)).body?.history as { note?: string }[];
    expect(history.at(-1)?.note).toContain("changed plans");

    const { operation: errored } = await requested("ana+error@example.com");
    await expect(client().cancelOperation(errored.id)).resolves.toMatchObject({ status: "CANCELLED" });
  });

  it("400 OPERATION_NOT_CANCELLABLE for CLIENT_REQUESTED and CONFIRMED, with the status", async () => {
    const { operation } = await requested();
    const error = await failure(client().cancelOperation(operation.id));
    expect(error).toMatchObject({ status: 400, errorCode: "OPERATION_NOT_CANCELLABLE" });
    expect(error.operationStatus).toBe("CLIENT_REQUESTED");

    const done = await confirmed();
    expect((await failure(client().cancelOperation(done.operation.id))).operationStatus).toBe("CONFIRMED");
  });

  it("a reason over 255 characters is a validation error", async () => {
    const operation = await client().createOperation(booking());
    const answer = await raw("POST", `/v1/operations/${operation.id}/cancel`, { body: JSON.stringify({ reason: "x".repeat(256) }) });
    expect(answer).toMatchObject({ status: 400, body: { errorCode: "VALIDATION_ERROR" } });
    expect((await client().getStatus(operation.id)).status.status).toBe("GENERATED");
  });
});

describe("refund", () => {
  it("400 OPERATION_NOT_REFUNDABLE before CONFIRMED, for details and refund", async () => {
    const operation = await client().createOperation(booking());
    expect(await failure(client().getRefundDetails(operation.id))).toMatchObject({ status: 400, errorCode: "OPERATION_NOT_REFUNDABLE" });
    expect(await failure(client().refund(operation.id))).toMatchObject({ status: 400, errorCode: "OPERATION_NOT_REFUNDABLE" });
  });

  it("details: totalToRefund deducts the management fees and the service's cancellation fee", async () => {
    const { operation } = await confirmed();
    const details = await client().getRefundDetails(operation.id);
    expect(details.totalToRefund.cents).toBe(
      details.totalReserve.cents - details.managementFees.cents - details.serviceCancellationFee.cents,
    );
    expect(details.serviceCancellationFee.cents).toBe(Math.round((123450 * details.serviceCancellationFeePercentage) / 100));
  });

  it("refund with agency and provider fees lowers totalToRefund by them and leaves REFUNDED", async () => {
    const { operation } = await confirmed();
    const before = await client().getRefundDetails(operation.id);
    const answer = await raw("POST", `/v1/operations/${operation.id}/refund`, {
      body: JSON.stringify({ agencyCancellationFee: 10.5, providerCancellationFee: 20, reason: "trip cancelled" }),
    });
    expect(answer.status).toBe(200);
    expect(answer.body?.status).toBe("REFUNDED");
    const refund = answer.body?.refund as { totalToRefund: { amount: number } };
    expect(Math.round(refund.totalToRefund.amount * 100)).toBe(before.totalToRefund.cents - 3050);
    expect((await client().getStatus(operation.id)).status.status).toBe("REFUNDED");
  });

  it("+refund_reject: 422 OPERATION_NOT_REFUNDABLE and nothing changes", async () => {
    const { operation } = await confirmed("ana+refund_reject@example.com");
    expect(await failure(client().refund(operation.id, { reason: "x" }))).toMatchObject({
      status: 422,
      errorCode: "OPERATION_NOT_REFUNDABLE",
    });
    expect((await client().getStatus(operation.id)).status.status).toBe("CONFIRMED");
  });
});

describe("webhooks", () => {
  it("a CANCELLED event reaches the webhookUrl; a 2xx alone does not stop redelivery; the ack does", async () => {
    const api = client();
    const operation = await api.createOperation(booking());
    await api.cancelOperation(operation.id);
    await server.sandbox.engine.idle();
    const [delivery] = webhooksFor(operation.id);
    expect(delivery?.body).toEqual({ operationIdentifier: operation.id, operationStatus: "CANCELLED", eventId: expect.any(Number) });
    expect(delivery?.headers["content-type"]).toContain("application/json");

    // Answered 200, not acknowledged: redelivered when the schedule says (1 minute).
    await control("POST", "/clock/advance", { seconds: 60 });
    expect(webhooksFor(operation.id)).toHaveLength(2);

    await api.acknowledgeWebhookEvent(delivery!.body as never);
    await control("POST", "/clock/advance", { seconds: 7 * 24 * 3600 });
    await control("POST", "/webhooks/redeliver");
    expect(webhooksFor(operation.id)).toHaveLength(2);
    const events = (await control("GET", `/operations/${operation.id}/webhooks`)).body as unknown as {
      acknowledged: boolean;
      attempts: number;
    }[];
    expect(events).toEqual([expect.objectContaining({ acknowledged: true, attempts: 2 })]);
  });

  it("keeps redelivering to a failing endpoint on the schedule, and the control API shows it", async () => {
    listener.answerWith(500);
    const { operation } = await confirmed();
    await server.sandbox.engine.idle();
    for (const seconds of [60, 300, 900]) await control("POST", "/clock/advance", { seconds });
    const events = (await control("GET", `/operations/${operation.id}/webhooks`)).body as unknown as {
      status: string;
      attempts: number;
      lastResponse: { status: number };
      acknowledged: boolean;
    }[];
    expect(events).toEqual([
      expect.objectContaining({
        status: "CONFIRMED",
        attempts: 4,
        lastResponse: expect.objectContaining({ status: 500 }),
        acknowledged: false,
      }),
    ]);
    // The QA redeliver call sends it now.
    await control("POST", "/webhooks/redeliver");
    expect(webhooksFor(operation.id).length).toBe(5);
  });

  it("each of the ack's six error codes", async () => {
    const { operation: confirmedOp } = await confirmed();
    const other = await client().createOperation(booking());
    await client().cancelOperation(other.id);
    await server.sandbox.engine.idle();
    const [confirmedEvent] = webhooksFor(confirmedOp.id).map((w) => w.body);
    const [otherEvent] = webhooksFor(other.id).map((w) => w.body);
    const ack = (key: string, body: unknown) => failure(client(key).acknowledgeWebhookEvent(body as never));

    expect(await ack(AGENCY_101, { ...confirmedEvent, operationIdentifier: "op_missing" })).toMatchObject({
      status: 404,
      errorCode: "OPERATION_NOT_FOUND",
    });
    expect(await ack(AGENCY_201, confirmedEvent)).toMatchObject({ status: 403, errorCode: "OPERATION_ACCESS_DENIED" });
    expect(await ack(AGENCY_101, { ...confirmedEvent, eventId: 999_999 })).toMatchObject({
      status: 404,
      errorCode: "WEBHOOK_EVENT_NOT_FOUND",
    });
    expect(await ack(AGENCY_101, { ...confirmedEvent, eventId: otherEvent!.eventId })).toMatchObject({
      status: 403,
      errorCode: "WEBHOOK_EVENT_OPERATION_MISMATCH",
    });
    expect(await ack(AGENCY_101, { ...confirmedEvent, operationStatus: "REFUSED" })).toMatchObject({
      status: 409,
      errorCode: "WEBHOOK_EVENT_STATUS_MISMATCH",
    });

    // The refund supersedes the CONFIRMED event: it can no longer be acknowledged.
    await client().refund(confirmedOp.id);
    expect(await ack(AGENCY_101, confirmedEvent)).toMatchObject({ status: 409, errorCode: "WEBHOOK_EVENT_NOT_ACKNOWLEDGEABLE" });

    // A bad body is a validation error; acknowledging twice is fine.
    expect(await raw("PUT", "/v1/operations/webhook-events/ack", { body: JSON.stringify({ eventId: "x" }) })).toMatchObject({
      status: 400,
    });
    await client().acknowledgeWebhookEvent(otherEvent as never);
    await client().acknowledgeWebhookEvent(otherEvent as never);
  });

  it("events for REFUSED, ERROR, REFUNDED; none for intermediate statuses", async () => {
    const refused = await requested("ana+refuse_all@example.com");
    const errored = await requested("ana+error@example.com");
    const { operation: refunded } = await confirmed();
    await client().refund(refunded.id);
    await server.sandbox.engine.idle();
    expect(webhooksFor(refused.operation.id).map((w) => w.body.operationStatus)).toEqual(["REFUSED"]);
    expect(webhooksFor(errored.operation.id).map((w) => w.body.operationStatus)).toEqual(["ERROR"]);
    expect(webhooksFor(refunded.id).map((w) => w.body.operationStatus)).toEqual(["CONFIRMED", "REFUNDED"]);
  });
});

describe("test clock", () => {
  it("EXPIRED after the time limit, with its webhook; FINISHED once the trip is over", async () => {
    const api = client(AGENCY_201);
    const stale = await api.createOperation(booking());
    const signing = await api.createOperation(booking());
    const offers = await api.getOffers(signing.id);
    await api.startFinancing(signing.id, offers.offers[0]!.id);
    const trip = await api.createOperation(booking({ flights: [{ origin: "MAD", destination: "LIS", departureDate: "2027-01-10" }] }));
    const tripOffers = await api.getOffers(trip.id);
    await api.startFinancing(trip.id, tripOffers.offers[0]!.id);
    await control("POST", `/operations/${trip.id}/decision`, { decision: "approve" }, AGENCY_201);

    await control("POST", "/clock/advance", { seconds: EXPIRY_SECONDS - 60 }, AGENCY_201);
    expect((await api.getStatus(stale.id)).status.status).toBe("GENERATED");
    await control("POST", "/clock/advance", { seconds: 120 }, AGENCY_201);
    expect((await api.getStatus(stale.id)).status.status).toBe("EXPIRED");
    expect((await api.getStatus(signing.id)).status.status).toBe("EXPIRED");
    expect(webhooksFor(stale.id).map((w) => w.body.operationStatus)).toContain("EXPIRED");
    expect((await api.getStatus(trip.id)).status.status).toBe("CONFIRMED");

    const days = Math.ceil((Date.parse("2027-01-11T00:00:00Z") - (await server.sandbox.engine.now("agency_201"))) / 1000);
    await control("POST", "/clock/advance", { seconds: days }, AGENCY_201);
    expect((await api.getStatus(trip.id)).status.status).toBe("FINISHED");
  });
});

describe("faults", () => {
  it("503 for a count: the client's retries ride it out", async () => {
    expect((await control("PUT", "/faults", { route: "GET /health", fault: "503", count: 2 })).status).toBe(200);
    await expect(client().health()).resolves.toMatchObject({ status: "UP" });
    expect(seen.filter((s) => s.path === "/health" && s.status === 503).length).toBeGreaterThanOrEqual(2);
  });

  it("429 with Retry-After; 500 on POST /financing is not retried", async () => {
    // Faults are per account: the group key's for GET /agencies, agency 101's for POST /financing.
    await control("PUT", "/faults", { route: "GET /agencies", fault: "429", retryAfterSeconds: 30 }, GROUP);
    await control("PUT", "/faults", { route: "POST /financing", fault: "500" });
    const limited = await failure(client(GROUP, { agencyId: 101 }).listAgencies());
    expect(limited).toMatchObject({ status: 429, retryAfterSeconds: 30 });
    const operation = await client().createOperation(booking());
    const before = seen.length;
    expect(await failure(client().startFinancing(operation.id, 1))).toMatchObject({
      status: 500,
      errorCode: "INTERNAL_ERROR",
      attempts: 1,
    });
    expect(seen.slice(before).filter((s) => s.path === "/financing")).toHaveLength(1);
  });

  it("latency on a route with a wildcard: the client times out", async () => {
    const operation = await client().createOperation(booking());
    await control("PUT", "/faults", { route: "GET /operations/*/status", fault: "latency", latencyMs: 300 });
    expect(await failure(client(AGENCY_101, { timeoutMs: 50 }).getStatus(operation.id))).toMatchObject({ kind: "timeout" });
    await control("DELETE", "/faults");
    await expect(client(AGENCY_101, { timeoutMs: 2000 }).getStatus(operation.id)).resolves.toMatchObject({ modified: true });
  });

  it("a bad fault is refused by name", async () => {
    const answer = await control("PUT", "/faults", { fault: "418" });
    expect(answer).toMatchObject({ status: 400, body: { errorCode: "VALIDATION_ERROR" } });
  });
});

describe("reset", () => {
  it("forgets operations and events and resets the clock", async () => {
    const input = booking();
    await client().createOperation(input);
    await control("POST", "/clock/advance", { seconds: 3600 });
    expect(((await control("GET", "/clock")).body?.offsetSeconds as number) > 0).toBe(true);
    await control("POST", "/reset");
    expect(await failure(client().getOperationByExternalId(input.externalId))).toMatchObject({ status: 404 });
    expect((await control("GET", "/clock")).body?.offsetSeconds).toBe(0);
  });
});

describe("the OpenAPI document", () => {
  it("is served at /sandbox/v1/openapi.json and describes every answer the sandbox gave above", async () => {
    const response = await fetch(`${server.baseUrl}/openapi.json`);
    expect(response.status).toBe(200);
    const served = await response.json();
    expect(served.openapi).toMatch(/^3\.1\./);
    const checker = createOpenApiChecker(buildOpenApiDocument());
    expect(seen.length).toBeGreaterThan(100);
    const failures = seen
      .filter((s) => s.path !== "/openapi.json" && !(s.status === 404 && s.body && "error" in (s.body as object)))
      .map((s) => ({ s, result: checker.check({ method: s.method, path: s.path, status: s.status, body: s.body }) }))
      .filter(({ result }) => !result.ok)
      .map(({ s, result }) => `${s.method} ${s.path} ${s.status}: ${"errors" in result ? result.errors : ""}`);
    expect(failures).toEqual([]);
  });
});
