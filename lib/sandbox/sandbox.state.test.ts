/**
 * The sandbox as QA teams live with it: its state survives a restart (PGlite data folder, and
 * PostgreSQL when TEST_DATABASE_URL is set, where several instances share it), accounts are
 * isolated from one another, the QA token reaches any account, items are free-form, webhook
 * targets are checked, bodies are capped and old operations are purged.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_QA_TOKEN } from "./config";
import { openSandboxDatabase, type SandboxDatabase } from "./db/connection";
import { sandboxAccounts } from "./db/schema";
import { EXPIRY_SECONDS, travelEndDate } from "./operation";
import { buildOpenApiDocument } from "./openapi";
import { createOpenApiChecker } from "./testing/openapi-check";
import { startSandboxServer, startWebhookListener } from "./testing/servers";
import { SAMPLE_WIRE_CLIENT } from "@/lib/financing/testing/samples";

const AGENCY_101 = "fk_test_sandbox_agency_101";
const AGENCY_201 = "fk_test_sandbox_agency_201";
const DAY_SECONDS = 24 * 60 * 60;

type Server = Awaited<ReturnType<typeof startSandboxServer>>;
type Listener = Awaited<ReturnType<typeof startWebhookListener>>;

interface Answer {
  status: number;
  body: Record<string, unknown> & { [key: string]: unknown };
}

async function call(
  server: Server,
  method: string,
  pathAndQuery: string,
  options: { key?: string; token?: string; body?: unknown } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`;
  else headers["X-Service-API-Key"] = options.key ?? AGENCY_101;
  const response = await fetch(`${server.origin}/sandbox${pathAndQuery}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: text === "" ? {} : (JSON.parse(text) as Answer["body"]) };
}

let counter = 0;
function createBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter += 1;
  return {
    externalId: `ST-${process.pid}-${Date.now()}-${counter}`,
    packageName: "Lisboa, 4 noches",
    packageTravel: true,
    travelersNumber: 2,
    totalPrice: 1234.5,
    client: SAMPLE_WIRE_CLIENT,
    flights: [{ origin: "MAD", destination: "LIS", departureDate: "01-05-2027", returnDate: "05-05-2027" }],
    ...overrides,
  };
}

async function create(server: Server, key = AGENCY_101, overrides: Record<string, unknown> = {}) {
  const answer = await call(server, "POST", "/v1/operations", { key, body: createBody(overrides) });
  expect(answer.status).toBe(201);
  return answer.body as { id: string; operationNumber: number; externalId: string; financingUrl: string };
}

async function statusOf(server: Server, id: string, key = AGENCY_101): Promise<string> {
  const answer = await call(server, "GET", `/v1/operations/${id}/status`, { key });
  expect(answer.status).toBe(200);
  return answer.body.status as string;
}

/** Takes an operation to CLIENT_REQUESTED with its first offer. */
async function requestFinancing(server: Server, id: string, key = AGENCY_101) {
  const offers = await call(server, "GET", `/v1/financing/${id}`, { key });
  const first = (offers.body.financialOffers as { id: number }[])[0]!;
  const started = await call(server, "POST", "/v1/financing", { key, body: { operationIdentifier: id, financialOfferId: first.id } });
  expect(started.body.financingStatus).toBe("REQUESTED");
}

interface EventView {
  eventId: number;
  status: string;
  url: string;
  attempts: number;
  lastResponse: { status?: number; error?: string } | null;
  acknowledged: boolean;
}

async function eventsOf(server: Server, id: string, key = AGENCY_101): Promise<EventView[]> {
  const answer = await call(server, "GET", `/_control/operations/${id}/webhooks`, { key });
  expect(answer.status).toBe(200);
  return answer.body as unknown as EventView[];
}

function deliveriesTo(listener: Listener, id: string) {
  return listener.received.filter((w) => w.body.operationIdentifier === id).map((w) => w.body);
}

// ---------------------------------------------------------------------------------------------
// A restart, on a PGlite data folder and on PostgreSQL

/**
 * Two lives of the sandbox on one database: operations, events and the clock survive the restart,
 * numbers are not reused, a flow interrupted by it goes on, and an unacknowledged event is
 * redelivered by the new process.
 */
async function restartScenario(open: () => Promise<SandboxDatabase>, listener: Listener) {
  let server = await startSandboxServer({ database: open() });
  let closed = false;
  try {
    const generated = await create(server, AGENCY_101, { webhookUrl: listener.url });
    const midFlow = await create(server, AGENCY_101, { webhookUrl: listener.url });
    await requestFinancing(server, midFlow.id);
    const decided = await create(server, AGENCY_101, { webhookUrl: listener.url });
    await requestFinancing(server, decided.id);
    expect((await call(server, "POST", `/_control/operations/${decided.id}/decision`, { body: { decision: "approve" } })).status).toBe(200);
    await server.sandbox.engine.idle();
    const [confirmedEvent] = deliveriesTo(listener, decided.id);
    expect(confirmedEvent).toMatchObject({ operationStatus: "CONFIRMED" });
    // Half of the first redelivery delay passes before the restart, half after.
    await call(server, "POST", "/_control/clock/advance", { body: { seconds: 30 } });
    expect(deliveriesTo(listener, decided.id)).toHaveLength(1);

    await server.close();
    closed = true;
    server = await startSandboxServer({ database: open() });
    closed = false;

    expect(await statusOf(server, generated.id)).toBe("GENERATED");
    expect(await statusOf(server, midFlow.id)).toBe("CLIENT_REQUESTED");
    expect(await statusOf(server, decided.id)).toBe("CONFIRMED");
    expect((await call(server, "GET", "/_control/clock")).body.offsetSeconds).toBeGreaterThanOrEqual(30);
    const detail = await call(server, "GET", `/_control/operations/${decided.id}`);
    expect((detail.body.history as { status: string }[]).map((h) => h.status)).toEqual([
      "GENERATED",
      "CLIENT_REQUESTED",
      "FAVORABLE",
      "CONFIRMED",
    ]);
    // The idempotent create still finds the operation made before the restart.
    const again = await call(server, "POST", "/v1/operations", { body: createBody({ externalId: generated.externalId }) });
    expect(again).toMatchObject({ status: 200, body: { id: generated.id } });

    // The unacknowledged event is redelivered by the new process when it falls due; the ack stops it.
    await call(server, "POST", "/_control/clock/advance", { body: { seconds: 30 } });
    expect(deliveriesTo(listener, decided.id)).toEqual([confirmedEvent, confirmedEvent]);
    expect((await call(server, "PUT", "/v1/operations/webhook-events/ack", { body: confirmedEvent })).status).toBe(200);

    // The interrupted flow goes on; its event and the next operation get fresh numbers.
    expect((await call(server, "POST", `/_control/operations/${midFlow.id}/decision`, { body: { decision: "approve" } })).status).toBe(200);
    await server.sandbox.engine.idle();
    const [midFlowEvent] = deliveriesTo(listener, midFlow.id);
    expect(midFlowEvent!.eventId).toBeGreaterThan(confirmedEvent!.eventId);
    const next = await create(server);
    expect(next.operationNumber).toBeGreaterThan(Math.max(generated.operationNumber, midFlow.operationNumber, decided.operationNumber));

    await call(server, "POST", "/_control/clock/advance", { body: { seconds: 7 * DAY_SECONDS } });
    expect(deliveriesTo(listener, decided.id)).toHaveLength(2);
  } finally {
    if (!closed) await server.close();
  }
}

describe("a restart", () => {
  let listener: Listener;
  let dataDir: string;

  beforeAll(async () => {
    listener = await startWebhookListener();
    dataDir = mkdtempSync(path.join(tmpdir(), "sandbox-state-"));
  });
  afterAll(async () => {
    await listener?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("on a PGlite data folder loses nothing, reuses no number, and redelivers an unacknowledged event", { timeout: 180_000 }, async () => {
    await restartScenario(() => openSandboxDatabase({ dataDir }), listener);
  });
});

// ---------------------------------------------------------------------------------------------
// One sandbox (in memory) for the rest

describe("one sandbox", () => {
  let server: Server;
  let listener: Listener;
  let realShiftMs = 0;
  const fetched: string[] = [];

  beforeAll(async () => {
    listener = await startWebhookListener();
    server = await startSandboxServer({
      realNow: () => Date.now() + realShiftMs,
      fetch: async (input, init) => {
        fetched.push(input instanceof Request ? input.url : String(input));
        return fetch(input, init);
      },
      // Names the tests use, resolved without DNS.
      lookup: async (hostname) => {
        const addresses: Record<string, string> = { "internal.example": "10.0.0.7", "metadata.example": "169.254.169.254" };
        const address = addresses[hostname];
        if (address === undefined) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" });
        return [{ address, family: 4 }];
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await listener?.close();
  });

  describe("accounts", () => {
    it("have clocks of their own: advancing one expires its operations only", async () => {
      const mine = await create(server, AGENCY_101);
      const theirs = await create(server, AGENCY_201);
      const before201 = (await call(server, "GET", "/_control/clock", { key: AGENCY_201 })).body.offsetSeconds as number;
      await call(server, "POST", "/_control/clock/advance", { body: { seconds: EXPIRY_SECONDS + 60 } });
      expect(await statusOf(server, mine.id)).toBe("EXPIRED");
      expect(await statusOf(server, theirs.id, AGENCY_201)).toBe("GENERATED");
      expect((await call(server, "GET", "/_control/clock", { key: AGENCY_201 })).body.offsetSeconds).toBe(before201);
    });

    it("have faults of their own: agency 201's 503 never reaches agency 101's calls", async () => {
      expect(
        (await call(server, "PUT", "/_control/faults", { key: AGENCY_201, body: { route: "GET /health", fault: "503" } })).status,
      ).toBe(200);
      try {
        expect((await call(server, "GET", "/v1/health", { key: AGENCY_201 })).status).toBe(503);
        expect((await call(server, "GET", "/v1/health", { key: AGENCY_101 })).status).toBe(200);
        expect((await call(server, "GET", "/_control/faults", { key: AGENCY_101 })).body.faults).toEqual([]);
      } finally {
        await call(server, "DELETE", "/_control/faults", { key: AGENCY_201 });
      }
    });

    it("a bad fault is a 400 naming its field, for one fault or in a list, and the faults in place stay", async () => {
      const fields = async (body: unknown) => {
        const answer = await call(server, "PUT", "/_control/faults", { key: AGENCY_201, body });
        expect(answer).toMatchObject({ status: 400, body: { errorCode: "VALIDATION_ERROR" } });
        return (answer.body.additionalInfo as { fields: { field: string }[] }).fields.map((problem) => problem.field);
      };
      expect(
        (await call(server, "PUT", "/_control/faults", { key: AGENCY_201, body: { route: "GET /health", fault: "503" } })).status,
      ).toBe(200);
      try {
        expect(await fields({ fault: "404" })).toEqual(["fault"]);
        expect(await fields({ fault: "503", rate: 2, route: "health" })).toEqual(["route", "rate"]);
        expect(await fields({ faults: [{ fault: "500" }, { fault: "429", retryAfterSeconds: -1 }] })).toEqual([
          "faults.1.retryAfterSeconds",
        ]);
        expect(await fields({ faults: "all" })).toEqual(["faults"]);
        expect(await fields([{ fault: "500" }])).toEqual(["(body)"]);
        expect((await call(server, "GET", "/_control/faults", { key: AGENCY_201 })).body.faults).toMatchObject([
          { route: "GET /health", fault: "503" },
        ]);
      } finally {
        await call(server, "DELETE", "/_control/faults", { key: AGENCY_201 });
      }
    });

    it("reset forgets only the caller's account; numbers and event ids are not reused after it", async () => {
      const mine = await create(server, AGENCY_101);
      const theirs = await create(server, AGENCY_201, { webhookUrl: listener.url });
      await call(server, "POST", `/v1/operations/${theirs.id}/cancel`, { key: AGENCY_201 });
      await server.sandbox.engine.idle();
      const [firstEvent] = deliveriesTo(listener, theirs.id);

      expect((await call(server, "POST", "/_control/reset", { key: AGENCY_201 })).status).toBe(200);
      expect((await call(server, "GET", `/v1/operations/by-external-id/${theirs.externalId}`, { key: AGENCY_201 })).status).toBe(404);
      expect(await statusOf(server, mine.id)).toBe("GENERATED");

      const after = await create(server, AGENCY_201, { webhookUrl: listener.url });
      await call(server, "POST", `/v1/operations/${after.id}/cancel`, { key: AGENCY_201 });
      await server.sandbox.engine.idle();
      expect(after.operationNumber).toBeGreaterThan(theirs.operationNumber);
      expect(deliveriesTo(listener, after.id)[0]!.eventId).toBeGreaterThan(firstEvent!.eventId);
    });

    it("the control API with one key cannot reach another account's operation", async () => {
      const mine = await create(server, AGENCY_101, { webhookUrl: listener.url });
      await requestFinancing(server, mine.id);
      for (const [method, suffix, body] of [
        ["GET", "", undefined],
        ["GET", "/webhooks", undefined],
        ["POST", "/decision", { decision: "decline" }],
      ] as const) {
        const answer = await call(server, method, `/_control/operations/${mine.id}${suffix}`, { key: AGENCY_201, body });
        expect(answer).toMatchObject({ status: 403, body: { errorCode: "OPERATION_ACCESS_DENIED" } });
      }
      expect(await statusOf(server, mine.id)).toBe("CLIENT_REQUESTED");
      // Nor can the group key, although it may read agency 101's operations through the partner API.
      expect((await call(server, "GET", `/_control/operations/${mine.id}`, { key: "fk_test_sandbox_group_1" })).status).toBe(403);
    });

    it("the operator's QA token acts on the account it names", async () => {
      const theirs = await create(server, AGENCY_201);
      await requestFinancing(server, theirs.id, AGENCY_201);
      const decided = await call(server, "POST", `/_control/operations/${theirs.id}/decision?account=agency_201`, {
        token: DEFAULT_QA_TOKEN,
        body: { decision: "approve" },
      });
      expect(decided).toMatchObject({ status: 200, body: { status: "CONFIRMED" } });
      // Another account named: that account's operations only.
      expect((await call(server, "GET", `/_control/operations/${theirs.id}?account=agency_101`, { token: DEFAULT_QA_TOKEN })).status).toBe(
        403,
      );
      const before = (await call(server, "GET", "/_control/clock", { key: AGENCY_101 })).body.offsetSeconds as number;
      await call(server, "POST", "/_control/clock/advance?account=agency_201", { token: DEFAULT_QA_TOKEN, body: { seconds: 5 } });
      expect((await call(server, "GET", "/_control/clock", { key: AGENCY_101 })).body.offsetSeconds).toBe(before);

      expect((await call(server, "GET", "/_control/clock?account=agency_201", { token: "not_the_qa_token_at_all" })).status).toBe(401);
      expect(await call(server, "GET", "/_control/clock", { token: DEFAULT_QA_TOKEN })).toMatchObject({
        status: 400,
        body: { errorCode: "VALIDATION_ERROR" },
      });
      expect((await call(server, "GET", "/_control/clock?account=nobody", { token: DEFAULT_QA_TOKEN })).status).toBe(400);
    });

    it("event records never show the secret path of the target", async () => {
      const secret = "whk_0123456789abcdefghijklmnop";
      const op = await create(server, AGENCY_101, { webhookUrl: `${listener.url}/${secret}?sig=also-secret` });
      await call(server, "POST", `/v1/operations/${op.id}/cancel`);
      await server.sandbox.engine.idle();
      expect(deliveriesTo(listener, op.id)).toHaveLength(1);
      const [event] = await eventsOf(server, op.id);
      expect(event!.url).toBe(`${new URL(listener.url).origin}/webhooks/financing/…?…`);
      expect(JSON.stringify(await eventsOf(server, op.id))).not.toContain(secret);
    });
  });

  describe("items", () => {
    it("a hotel with field names of its own is accepted and echoed as sent", async () => {
      const hotel = { hotelName: "Hotel Miradouro", checkIn: "2027-05-01", checkOut: "05-05-2027", board: { type: "HB" }, rooms: 1 };
      const op = await create(server, AGENCY_101, { flights: undefined, hotels: [hotel], services: [{ anything: true }] });
      const detail = await call(server, "GET", `/_control/operations/${op.id}`);
      expect(detail.body.hotels).toEqual([hotel]);
      expect(detail.body.services).toEqual([{ anything: true }]);
      expect(detail.body.flights).toEqual([]);
    });

    it("still needs one item overall, and items must be objects", async () => {
      const none = await call(server, "POST", "/v1/operations", { body: createBody({ flights: [] }) });
      expect(none).toMatchObject({ status: 400, body: { errorCode: "VALIDATION_ERROR" } });
      const notObjects = await call(server, "POST", "/v1/operations", { body: createBody({ flights: ["MAD-LIS"] }) });
      expect(notObjects).toMatchObject({ status: 400, body: { errorCode: "VALIDATION_ERROR" } });
    });

    it("the trip's end is the latest date among the items, whatever the fields are called", () => {
      const body = createBody({
        flights: undefined,
        hotels: [{ checkIn: "01-05-2027", checkOut: "2027-05-09" }],
        services: [{ on: "03-05-2027" }],
      });
      expect(travelEndDate(body as never)).toBe("2027-05-09");
      expect(travelEndDate(createBody({ flights: [{ note: "no dates" }] }) as never)).toBeUndefined();
    });
  });

  describe("webhook targets", () => {
    async function refusedDelivery(webhookUrl: string) {
      const op = await create(server, AGENCY_101, { webhookUrl });
      await call(server, "POST", `/v1/operations/${op.id}/cancel`);
      await server.sandbox.engine.idle();
      const [event] = await eventsOf(server, op.id);
      return { event: event!, url: webhookUrl };
    }

    it("a delivery to 169.254.169.254 is refused, and nothing is sent", async () => {
      const { event, url } = await refusedDelivery("http://169.254.169.254/latest/meta-data/iam");
      expect(event).toMatchObject({ attempts: 1, acknowledged: false });
      expect(event.lastResponse?.error).toMatch(/^refused: .*link-local or metadata/);
      expect(event.lastResponse?.status).toBeUndefined();
      expect(fetched).not.toContain(url);
    });

    it("a host name that resolves to a private or metadata address is refused too", async () => {
      for (const host of ["internal.example", "metadata.example"]) {
        const { event, url } = await refusedDelivery(`http://${host}/hooks`);
        expect(event.lastResponse?.error).toMatch(/^refused: /);
        expect(fetched).not.toContain(url);
      }
    });

    it("a non-http(s) webhookUrl is refused at creation", async () => {
      const answer = await call(server, "POST", "/v1/operations", { body: createBody({ webhookUrl: "file:///etc/passwd" }) });
      expect(answer).toMatchObject({ status: 400, body: { errorCode: "VALIDATION_ERROR" } });
      expect(String(answer.body.message)).toContain("webhookUrl");
    });

    it("loopback is allowed in local mode (the listener here is on 127.0.0.1)", async () => {
      const op = await create(server, AGENCY_101, { webhookUrl: listener.url });
      await call(server, "POST", `/v1/operations/${op.id}/cancel`);
      await server.sandbox.engine.idle();
      expect(deliveriesTo(listener, op.id)).toHaveLength(1);
    });
  });

  describe("request bodies", () => {
    it("over 64 KB are refused with 413 before they are read, with or without Content-Length", async () => {
      const big = JSON.stringify(createBody({ packageName: "x".repeat(70_000) }));
      const declared = await fetch(`${server.baseUrl}/operations`, {
        method: "POST",
        headers: { "X-Service-API-Key": AGENCY_101, "Content-Type": "application/json" },
        body: big,
      });
      expect(declared.status).toBe(413);
      const body = await declared.json();
      expect(body).toMatchObject({ error: "Payload Too Large" });
      // The sandbox's OpenAPI document describes this answer.
      expect(createOpenApiChecker(buildOpenApiDocument()).check({ method: "POST", path: "/operations", status: 413, body })).toEqual({
        ok: true,
      });

      const bytes = new TextEncoder().encode(big);
      const streamed = await fetch(`${server.baseUrl}/operations`, {
        method: "POST",
        headers: { "X-Service-API-Key": AGENCY_101, "Content-Type": "application/json" },
        body: new ReadableStream({
          start(controller) {
            for (let i = 0; i < bytes.length; i += 8_192) controller.enqueue(bytes.slice(i, i + 8_192));
            controller.close();
          },
        }),
        duplex: "half",
      } as RequestInit);
      expect(streamed.status).toBe(413);
    });

    it("up to 64 KB are read as usual", async () => {
      const answer = await call(server, "POST", "/v1/operations", { body: createBody({ packageName: "x".repeat(60_000) }) });
      expect(answer.status).toBe(201);
    });
  });

  // Last: the purge deletes every old operation in this database.
  describe("retention", () => {
    it("purges operations created more than retentionDays ago (wall clock), with their events", async () => {
      const old = await create(server, AGENCY_101, { webhookUrl: listener.url });
      await call(server, "POST", `/v1/operations/${old.id}/cancel`);
      await server.sandbox.engine.idle();
      realShiftMs = (server.sandbox.engine.retentionDays + 1) * DAY_SECONDS * 1000;
      try {
        const recent = await create(server, AGENCY_101);
        expect(await server.sandbox.engine.purgeExpired()).toBeGreaterThanOrEqual(1);
        expect((await call(server, "GET", `/v1/operations/${old.id}/status`)).status).toBe(404);
        expect(await statusOf(server, recent.id)).toBe("GENERATED");
      } finally {
        realShiftMs = 0;
      }
    });
  });
});

// ---------------------------------------------------------------------------------------------
// PostgreSQL: a restart, and several instances on one database

const testDatabaseUrl = process.env.TEST_DATABASE_URL;

// Without TEST_DATABASE_URL there is no server to test against: skipping is the expected outcome
// on a laptop, while CI sets the variable and runs it.
describe.runIf(testDatabaseUrl)("on PostgreSQL", () => {
  const url = new URL(testDatabaseUrl ?? "postgres://unused");
  const name = `lib_sandbox_test_${process.pid}_${Date.now()}`;
  const throwaway = new URL(url);
  throwaway.pathname = `/${name}`;
  let admin: postgres.Sql;
  let listener: Listener;

  beforeAll(async () => {
    admin = postgres(url.href, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${name}"`);
    listener = await startWebhookListener();
  });
  afterAll(async () => {
    await listener?.close();
    if (!admin) return;
    try {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
    } finally {
      await admin.end({ timeout: 5 });
    }
  });

  it("a restart loses nothing and reuses no number", { timeout: 120_000 }, async () => {
    await restartScenario(() => openSandboxDatabase({ databaseUrl: throwaway.href, dataDir: "unused" }), listener);
  });

  it("two instances: one operation for 50 concurrent creates, one delivery per due attempt", { timeout: 120_000 }, async () => {
    const [a, b] = await Promise.all([
      startSandboxServer({ database: openSandboxDatabase({ databaseUrl: throwaway.href, dataDir: "unused" }) }),
      startSandboxServer({ database: openSandboxDatabase({ databaseUrl: throwaway.href, dataDir: "unused" }) }),
    ]);
    try {
      const body = createBody({ webhookUrl: listener.url });
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => call(i % 2 === 0 ? a : b, "POST", "/v1/operations", { body })),
      );
      expect(new Set(answers.map((r) => r.body.id)).size).toBe(1);
      expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
      const id = answers[0]!.body.id as string;

      await call(a, "POST", `/v1/operations/${id}/cancel`);
      await a.sandbox.engine.idle();
      expect(deliveriesTo(listener, id)).toHaveLength(1);

      // The redelivery falls due for both instances at once (the clock moved under them), and both
      // tick twice, concurrently: the attempt is claimed, and sent, once.
      const database = await openSandboxDatabase({ databaseUrl: throwaway.href, dataDir: "unused" });
      try {
        await database.db
          .update(sandboxAccounts)
          .set({ clockOffsetMs: sql`${sandboxAccounts.clockOffsetMs} + 60000` })
          .where(eq(sandboxAccounts.id, "agency_101"));
      } finally {
        await database.close();
      }
      await Promise.all([a.sandbox.engine.tick(), b.sandbox.engine.tick(), a.sandbox.engine.tick(), b.sandbox.engine.tick()]);
      await Promise.all([a.sandbox.engine.idle(), b.sandbox.engine.idle()]);
      expect(deliveriesTo(listener, id)).toHaveLength(2);
      const [event] = await eventsOf(b, id);
      expect(event).toMatchObject({ attempts: 2, status: "CANCELLED" });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
