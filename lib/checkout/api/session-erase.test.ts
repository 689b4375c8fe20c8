/**
 * A partner's backend erasing its customers' data through the checkout sessions API: an ended
 * session is erased and answered with `customerDataErasedAt` (GET says it too), a repeat answers the
 * same, another partner's session is "not found", one whose customer's outcome is open a 409 with
 * `Retry-After`, and a path that is no session id a 4xx. Every answer checked against the document.
 */
import { describe, expect, it } from "vitest";
import { AppError, errorHeaders } from "@/lib/app-error";
import { errorResponse } from "@/lib/http/error-response";
import { checkoutSessions, partnerNotifications } from "@/lib/db/schema";
import { and, eq } from "drizzle-orm";
import { DEMO_BLUE_PARTNER_SECRET, seedDemoPartner } from "@/lib/demo/seed";
import { editorTokenHash } from "../session/customer-editor";
import { getCustomerDraft, saveCustomerData } from "../session/customer-store";
import { documented } from "../testing/api-document";
import { BROWSER, customerDraft, DEMO_SECRET, storedSession, testBuckets } from "../testing/context";
import { offlineWorld } from "../testing/offline-world";
import { handleEraseSession } from "./session-actions";
import { handleGetSession, type SessionsApiThrottles } from "./sessions-api";

const world = offlineWorld();
const context = () => Promise.resolve(world.ctx);
let count = 0;

function throttles(): SessionsApiThrottles {
  const buckets = testBuckets;
  return {
    createPerPartner: buckets(100_000),
    createPerIp: buckets(100_000),
    wrongSecretsPerIp: buckets(100_000),
    readsPerPartner: buckets(100_000),
    actionsPerPartner: buckets(100_000),
    trustedProxyHops: 0,
  };
}

function request(path: string, method: "GET" | "POST", as = DEMO_SECRET): Request {
  return new Request(`http://localhost/api/checkout-sessions/${path}`, {
    method,
    headers: { Authorization: `Bearer ${as}`, "Content-Type": "application/json" },
    ...(method === "POST" ? { body: "{}" } : {}),
  });
}

const erase = (id: string, as = DEMO_SECRET) =>
  documented("POST", `/checkout-sessions/${id}/erase`, handleEraseSession(request(`${id}/erase`, "POST", as), id, throttles(), context));
const read = (id: string) => documented("GET", `/checkout-sessions/${id}`, handleGetSession(request(id, "GET"), id, throttles(), context));

/** The refusal as the route answers it: status, headers, body. */
async function refusal(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error, "expected a refusal").toBeInstanceOf(AppError);
  const response = errorResponse(error);
  const body = (await response.json()) as { error: { code: string; state?: string } };
  return { status: response.status, retryAfter: errorHeaders(error as AppError).get("Retry-After"), ...body.error };
}

async function session(status: "CONFIRMED" | "CLIENT_REQUESTED"): Promise<string> {
  count += 1;
  const row = storedSession({ id: `cs_apierase${count}_0000000`, reference: `API-ERASE-${count}`, operationId: `op_apierase${count}` });
  await world.ctx.db.insert(checkoutSessions).values({ ...row, operationStatus: status });
  await saveCustomerData(world.ctx.db, row.id, customerDraft(), editorTokenHash(BROWSER));
  return row.id;
}

describe("POST /api/checkout-sessions/{id}/erase", () => {
  it("erases an ended session's customer data and says when, on GET too; a repeat answers the same, notified once", async () => {
    const id = await session("CONFIRMED");
    expect((await read(id)).customerDataErasedAt).toBeNull();

    const first = await erase(id);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id, state: "confirmed", customerDataErasedAt: expect.any(String) });
    expect(await getCustomerDraft(world.ctx.db, id)).toMatchObject({ status: "erased" });
    expect((await read(id)).customerDataErasedAt).toBe(first.body.customerDataErasedAt);

    const again = await erase(id);
    expect(again).toEqual(first);
    const notified = await world.ctx.db
      .select()
      .from(partnerNotifications)
      .where(and(eq(partnerNotifications.sessionId, id), eq(partnerNotifications.state, "customer_data_erased")));
    expect(notified).toHaveLength(1);
  });

  it("answers 404 for another partner's session, and erases nothing", async () => {
    await seedDemoPartner(world.ctx.db, { secret: DEMO_SECRET, appUrl: world.ctx.appUrl, secondPartner: true });
    const id = await session("CONFIRMED");
    expect(await refusal(erase(id, DEMO_BLUE_PARTNER_SECRET))).toMatchObject({ status: 404, code: "not_found" });
    expect(await getCustomerDraft(world.ctx.db, id)).toMatchObject({ status: "present" });
  });

  it("answers 409 customer_data_in_use with the state and Retry-After while the customer is at the provider", async () => {
    const id = await session("CLIENT_REQUESTED");
    expect(await refusal(erase(id))).toMatchObject({ status: 409, code: "customer_data_in_use", state: "pending", retryAfter: "900" });
    expect(await getCustomerDraft(world.ctx.db, id)).toMatchObject({ status: "present" });
  });

  it("answers a 4xx for a path that is no session id", async () => {
    const answer = await refusal(erase("not-a-session"));
    expect(answer.status).toBe(404);
    expect(answer.code).toBe("not_found");
  });
});
