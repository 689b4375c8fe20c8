/**
 * The checkout sessions API's throttles: sessions opened per partner secret and per client, and
 * wrong bearer secrets per client IP, each answered 429 `rate_limited` with Retry-After in the
 * API's error format.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorResponse } from "@/lib/http/error-response";
import type { Database } from "@/lib/db";
import { partners } from "@/lib/db/schema";
import { DEMO_PARTNER_ID } from "@/lib/demo/seed";
import { createApiSecret, revokeApiSecret } from "@/lib/partners/api-secrets";
import type { CheckoutContext } from "../session/flow";
import { sessionsApiHeaders } from "./api-headers";
import { handleCreateSession, handleGetSession, type SessionsApiThrottles } from "./sessions-api";
import { customerDraft, DEMO_SECRET, sessionInput, testContext, testBuckets } from "../testing/context";
import { eraseCustomerData } from "../session/customer-store";
import { AppError } from "@/lib/app-error";

let database: Database;
let ctx: CheckoutContext;
const context = () => Promise.resolve(ctx);

beforeAll(async () => {
  // No partner API call is made here: the base URL goes nowhere.
  ({ ctx, database } = await testContext("http://127.0.0.1:9/v1"));
});

afterAll(async () => {
  await database?.close();
});

function throttles(limits: { perPartner?: number; perIp?: number; wrongSecrets?: number } = {}): SessionsApiThrottles {
  const buckets = testBuckets;
  return {
    createPerPartner: buckets(limits.perPartner ?? 100),
    createPerIp: buckets(limits.perIp ?? 100),
    wrongSecretsPerIp: buckets(limits.wrongSecrets ?? 100),
    // Behind one proxy, so that a test can be several clients (X-Forwarded-For's last entry).
    trustedProxyHops: 1,
  };
}

function post(secret: string, ip = "203.0.113.1"): Request {
  return new Request("http://localhost/api/checkout-sessions", {
    method: "POST",
    headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json", "X-Forwarded-For": ip },
    body: JSON.stringify(sessionInput()),
  });
}

/** What the route answers for the call: its status, Retry-After and error code. */
async function answer(call: Promise<unknown>): Promise<{ status: number; retryAfter: string | null; code?: string }> {
  try {
    await call;
    return { status: 201, retryAfter: null };
  } catch (error) {
    const response = errorResponse(error);
    const body = (await response.json()) as { error: { code: string } };
    return { status: response.status, retryAfter: response.headers.get("retry-after"), code: body.error.code };
  }
}

describe("the checkout sessions API's throttles", () => {
  it("refuse sessions past a partner secret's budget, from any address", async () => {
    const limits = throttles({ perPartner: 5 });
    const answers = [];
    for (let i = 0; i < 8; i += 1)
      answers.push(await answer(handleCreateSession(post(DEMO_SECRET, `203.0.113.${i + 1}`), limits, context)));
    expect(answers.slice(0, 5).every((a) => a.status === 201)).toBe(true);
    for (const refused of answers.slice(5)) {
      expect(refused).toMatchObject({ status: 429, code: "rate_limited" });
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    }
  });

  it("refuse sessions past a client's budget, while another client goes on", async () => {
    const limits = throttles({ perIp: 3 });
    const answers = [];
    for (let i = 0; i < 5; i += 1) answers.push(await answer(handleCreateSession(post(DEMO_SECRET, "198.51.100.7"), limits, context)));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 429, 429]);
    expect((await answer(handleCreateSession(post(DEMO_SECRET, "198.51.100.8"), limits, context))).status).toBe(201);
  });

  it("refuse a client that sent too many wrong secrets, before looking at the next one, right or wrong", async () => {
    const limits = throttles({ wrongSecrets: 10 });
    const wrong = [];
    for (let i = 0; i < 12; i += 1) wrong.push(await answer(handleGetSession(post(`wrong_secret_${i}`), "cs_x", limits, context)));
    expect(wrong.slice(0, 10).every((a) => a.status === 401 && a.code === "unauthorized")).toBe(true);
    expect(wrong.slice(10).every((a) => a.status === 429 && a.code === "rate_limited" && Number(a.retryAfter) >= 1)).toBe(true);
    // The right secret from that address: refused too, for now.
    expect((await answer(handleCreateSession(post(DEMO_SECRET), limits, context))).status).toBe(429);
    // From another address: served.
    expect((await answer(handleCreateSession(post(DEMO_SECRET, "192.0.2.44"), limits, context))).status).toBe(201);
  });
});

describe("the checkout sessions API's secrets", () => {
  /** The whole answer to a call: status and the body in the API's error format. */
  async function refusal(call: Promise<unknown>): Promise<{ status: number; body: unknown }> {
    try {
      await call;
      return { status: 201, body: undefined };
    } catch (error) {
      const response = errorResponse(error);
      return { status: response.status, body: await response.json() };
    }
  }

  it("answer a revoked secret and a disabled partner's secret exactly as an unknown one, at once", async () => {
    const limits = throttles();
    const unknown = await refusal(handleCreateSession(post("not_a_secret_of_anyone_0123"), limits, context));
    expect(unknown).toEqual({ status: 401, body: { error: { code: "unauthorized", message: expect.any(String) } } });

    const created = await createApiSecret(
      ctx.db,
      DEMO_PARTNER_ID,
      "Backend",
      ["sessions:open"],
      { kind: "system", id: null, name: null },
      "sandbox",
      () => true,
    );
    if (!created.ok) throw new Error(created.reason);
    expect((await answer(handleCreateSession(post(created.secret), limits, context))).status).toBe(201);

    await ctx.db.update(partners).set({ disabledAt: new Date() }).where(eq(partners.id, DEMO_PARTNER_ID));
    try {
      expect(await refusal(handleCreateSession(post(created.secret), limits, context))).toEqual(unknown);
      expect(await refusal(handleGetSession(post(DEMO_SECRET), "cs_x0123456789", limits, context))).toEqual(unknown);
    } finally {
      await ctx.db.update(partners).set({ disabledAt: null }).where(eq(partners.id, DEMO_PARTNER_ID));
    }

    await revokeApiSecret(ctx.db, DEMO_PARTNER_ID, created.view.id);
    expect(await refusal(handleCreateSession(post(created.secret), limits, context))).toEqual(unknown);
    // The partner's other secret goes on.
    expect((await answer(handleCreateSession(post(DEMO_SECRET), limits, context))).status).toBe(201);
  });
});

describe("the checkout sessions API's read budget", () => {
  it("refuses reads past a partner secret's budget (429 with Retry-After), and states it in every answer's headers", async () => {
    const limits = { ...throttles(), readsPerPartner: testBuckets(3) };
    const created = await handleCreateSession(post(DEMO_SECRET), limits, context);
    const reads = [];
    for (let i = 0; i < 5; i += 1) reads.push(await answer(handleGetSession(post(DEMO_SECRET), created.body.id, limits, context)));
    expect(reads.map((r) => r.status)).toEqual([201, 201, 201, 429, 429]);
    expect(Number(reads[3]!.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(sessionsApiHeaders("read")).toMatchObject({
      "Cache-Control": "no-store",
      "X-RateLimit-Limit": expect.stringMatching(/^\d+$/),
      // Only this deployment's own pages could read an answer: no other site's.
      "Access-Control-Allow-Origin": expect.stringMatching(/^https?:\/\/[^/]+$/),
    });
  });
});

describe("a request with several bad fields", () => {
  function create(body: unknown): Promise<unknown> {
    const request = new Request("http://localhost/api/checkout-sessions", {
      method: "POST",
      headers: { Authorization: `Bearer ${DEMO_SECRET}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    return handleCreateSession(request, throttles(), context);
  }

  async function fieldsOf(call: Promise<unknown>): Promise<{ status: number; code: string; fields: { field: string; message: string }[] }> {
    const error = await call.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(AppError);
    const response = errorResponse(error);
    const body = (await response.json()) as { error: { code: string; fields: { field: string; message: string }[] } };
    return { status: response.status, code: body.error.code, fields: body.error.fields };
  }

  it("names a return URL off the partner's origins together with the booking's errors, in one answer", async () => {
    const input = sessionInput({ returnUrl: "https://elsewhere.example/back" });
    const body = { ...input, booking: { ...input.booking, travellers: 0, flights: [] } };
    const answer = await fieldsOf(create(body));
    expect(answer).toMatchObject({ status: 400, code: "validation_failed" });
    expect(answer.fields.map((f) => f.field)).toEqual(expect.arrayContaining(["booking.travellers", "booking.flights", "returnUrl"]));
    expect(answer.fields.find((f) => f.field === "returnUrl")?.message).toMatch(/allowed origins/);
    // In the API's words, never the validator's ("Too small: expected number to be >=1").
    expect(answer.fields.find((f) => f.field === "booking.travellers")?.message).toBe("must be at least 1");
  });

  it("names it alone when it is the only bad field, and once when it is also malformed", async () => {
    expect((await fieldsOf(create(sessionInput({ returnUrl: "https://elsewhere.example/back" })))).fields).toEqual([
      // Naming them: the partner's own settings, which its developer needs to fix the call.
      {
        field: "returnUrl",
        message: expect.stringMatching(/^must be on one of the partner's allowed origins: http:\/\/127\.0\.0\.1:3999(,|$)/),
      },
    ]);
    const malformed = await fieldsOf(create({ ...sessionInput(), returnUrl: "ftp://elsewhere.example/back" }));
    expect(malformed.fields).toEqual([{ field: "returnUrl", message: "must be an http or https URL" }]);
  });
});

describe("the checkout sessions API with a session's customer data erased", () => {
  it("reads the session and replays its creation (200), never with the customer's data", async () => {
    const input = sessionInput({ customer: customerDraft("api-erased@example.com") });
    const create = () =>
      new Request("http://localhost/api/checkout-sessions", {
        method: "POST",
        headers: { Authorization: `Bearer ${DEMO_SECRET}`, "Content-Type": "application/json", "X-Forwarded-For": "203.0.113.90" },
        body: JSON.stringify(input),
      });
    const created = await handleCreateSession(create(), throttles(), context);
    expect(created.status).toBe(201);
    expect(await eraseCustomerData(ctx.db, created.body.id, new Date())).toBe("erased");

    const read = await handleGetSession(post(DEMO_SECRET), created.body.id, throttles(), context);
    expect(read).toMatchObject({ id: created.body.id, state: "open" });
    const replay = await handleCreateSession(create(), throttles(), context);
    expect(replay).toMatchObject({ status: 200, body: { id: created.body.id } });
    expect(JSON.stringify([read, replay.body])).not.toContain("api-erased@example.com");
  });
});
