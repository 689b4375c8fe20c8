/**
 * The checkout sessions API's per-address throttles hold across instances and across an IPv6
 * line: every instance spends the same buckets (in the database), and an IPv6 client is counted by
 * its /64, so neither a second instance nor a new address of the same line buys more sessions or
 * more guesses of a secret. Refusals stay a 429 `rate_limited` with Retry-After.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { throwawayDatabase } from "@/lib/db/testing/throwaway";
import { errorResponse } from "@/lib/http/error-response";
import type { Database } from "@/lib/db";
import type { CheckoutContext } from "../session/flow";
import { handleCreateSession, handleGetSession, throttlesOf, type SessionsApiThrottles } from "./sessions-api";
import { DEMO_SECRET, sessionInput, testContext } from "../testing/context";

/** Small budgets, the same on every instance (as one configuration deployed twice). */
const BUDGET = {
  createPerPartnerPerMinute: 1_000,
  createPerIpPerMinute: 3,
  wrongSecretsPerIpPerMinute: 3,
  readsPerPartnerPerMinute: 1_000,
  actionsPerPartnerPerMinute: 1_000,
};

/** An instance: its own context (its own handle on the database) and its own throttles, built from the configuration. */
interface Instance {
  ctx: CheckoutContext;
  throttles: SessionsApiThrottles;
}

function instance(ctx: CheckoutContext): Instance {
  // Behind one proxy, so that a test can be several clients (X-Forwarded-For's last entry).
  return { ctx, throttles: throttlesOf(BUDGET, 1) };
}

function request(secret: string, ip: string): Request {
  return new Request("http://localhost/api/checkout-sessions", {
    method: "POST",
    headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json", "X-Forwarded-For": ip },
    body: JSON.stringify(sessionInput()),
  });
}

/** The status, Retry-After and error code the API answers. */
async function answer(call: Promise<unknown>): Promise<{ status: number; retryAfter?: number; code?: string }> {
  try {
    await call;
    return { status: 201 };
  } catch (error) {
    const response = errorResponse(error);
    const body = (await response.json()) as { error: { code: string } };
    return { status: response.status, retryAfter: Number(response.headers.get("retry-after")), code: body.error.code };
  }
}

const create = (at: Instance, ip: string, secret = DEMO_SECRET) =>
  answer(handleCreateSession(request(secret, ip), at.throttles, () => Promise.resolve(at.ctx)));
const read = (at: Instance, ip: string, secret: string) =>
  answer(handleGetSession(request(secret, ip), "cs_x", at.throttles, () => Promise.resolve(at.ctx)));

/** Sessions and wrong secrets from one client, its calls alternating between two instances. */
function sharedBudgetTests(instances: () => [Instance, Instance]) {
  it("open no more sessions for one client than its budget, however its calls are spread over instances", async () => {
    const [one, two] = instances();
    const answers = [];
    for (let i = 0; i < 5; i += 1) answers.push(await create(i % 2 === 0 ? one : two, "198.51.100.20"));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 429, 429]);
    for (const refused of answers.slice(3)) {
      expect(refused.code).toBe("rate_limited");
      // Three a minute: a token is back within 20 seconds, and Retry-After says so.
      expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
      expect(refused.retryAfter).toBeLessThanOrEqual(20);
    }
    // Another client is served, on either instance.
    expect((await create(two, "198.51.100.21")).status).toBe(201);
  });

  it("count the wrong secrets of a client on every instance, and then refuse its right one too", async () => {
    const [one, two] = instances();
    const wrong = [];
    for (let i = 0; i < 5; i += 1) wrong.push(await read(i % 2 === 0 ? one : two, "198.51.100.30", `wrong_secret_${i}`));
    expect(wrong.map((a) => a.status)).toEqual([401, 401, 401, 429, 429]);
    expect((await create(one, "198.51.100.30")).status).toBe(429);
    expect((await create(two, "198.51.100.30")).status).toBe(429);
  });
}

describe("the checkout sessions API's per-address throttles (one database)", () => {
  let database: Database;
  let ctx: CheckoutContext;

  beforeAll(async () => {
    ({ ctx, database } = await testContext("http://127.0.0.1:9/v1"));
  });

  afterAll(async () => {
    await database?.close();
  });

  it("count an IPv6 client by its /64: a new address of the same line spends the same budget", async () => {
    const at = instance(ctx);
    const line = ["2001:db8:7:1::1", "2001:db8:7:1::2", "2001:db8:7:1:ffff:ffff:ffff:ffff", "2001:0db8:0007:0001:a::b"];
    const answers = [];
    for (const ip of line) answers.push(await create(at, ip));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 429]);
    expect(answers[3]).toMatchObject({ code: "rate_limited" });
    // The next /64 is another client.
    expect((await create(at, "2001:db8:7:2::1")).status).toBe(201);
  });

  it("count the wrong secrets of an IPv6 /64 together", async () => {
    const at = instance(ctx);
    const wrong = [];
    for (let i = 0; i < 4; i += 1) wrong.push(await read(at, `2001:db8:9:1::${i + 1}`, `wrong_secret_${i}`));
    expect(wrong.map((a) => a.status)).toEqual([401, 401, 401, 429]);
  });

  // Two instances' worth of throttles on one PGlite database (one handle: PGlite has no second).
  sharedBudgetTests(() => [instance({ ...ctx }), instance({ ...ctx })]);
});

describe.runIf(process.env.TEST_DATABASE_URL)("the checkout sessions API's per-address throttles (two instances on PostgreSQL)", () => {
  const throwaway = throwawayDatabase("shared_throttles");
  const opened: Database[] = [];
  let pair: [Instance, Instance];

  beforeAll(async () => {
    // Two instances: each its own pool on the one database.
    const one = await testContext("http://127.0.0.1:9/v1", { databaseUrl: throwaway.url });
    const two = await testContext("http://127.0.0.1:9/v1", { databaseUrl: throwaway.url });
    opened.push(one.database, two.database);
    pair = [instance(one.ctx), instance(two.ctx)];
  });

  afterAll(async () => {
    for (const database of opened) await database.close();
  });

  sharedBudgetTests(() => pair);
});
