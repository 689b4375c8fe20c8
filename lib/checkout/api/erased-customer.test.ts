import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db";
import { createTokenBuckets } from "@/lib/security/limits/token-bucket";
import { eraseCustomerData } from "../session/customer-store";
import type { CheckoutContext } from "../session/flow";
import { customerDraft, DEMO_SECRET, sessionInput, testContext } from "../testing/context";
import { handleCreateSession, handleGetSession, type SessionsApiThrottles } from "./sessions-api";

/*
 * The checkout sessions API never answers with the customer's data; with it erased, a session is
 * still read, and its creation replayed, as before.
 */

let database: Database;
let ctx: CheckoutContext;
const context = () => Promise.resolve(ctx);

beforeAll(async () => {
  ({ ctx, database } = await testContext("http://127.0.0.1:9/v1"));
});
afterAll(async () => {
  await database?.close();
});

function throttles(): SessionsApiThrottles {
  const buckets = () => createTokenBuckets({ capacity: 100, perMinute: 100 });
  return { createPerPartner: buckets(), createPerIp: buckets(), wrongSecretsPerIp: buckets(), trustedProxyHops: 0 };
}

function request(body?: unknown): Request {
  return new Request("http://localhost/api/checkout-sessions", {
    method: body === undefined ? "GET" : "POST",
    headers: { Authorization: `Bearer ${DEMO_SECRET}`, "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe("the checkout sessions API with a session's customer data erased", () => {
  it("reads the session and replays its creation (200), with no customer data either way", async () => {
    const input = sessionInput({ customer: customerDraft("api-erased@example.com") });
    const created = await handleCreateSession(request(input), throttles(), context);
    expect(created.status).toBe(201);
    expect(await eraseCustomerData(ctx.db, created.body.id, new Date())).toBe("erased");

    const read = await handleGetSession(request(), created.body.id, throttles(), context);
    expect(read).toMatchObject({ id: created.body.id, state: "open" });
    const replay = await handleCreateSession(request(input), throttles(), context);
    expect(replay).toMatchObject({ status: 200, body: { id: created.body.id } });
    expect(JSON.stringify([read, replay.body])).not.toContain("api-erased@example.com");
  });
});
