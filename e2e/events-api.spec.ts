import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { startPartnerEndpoint, verifies, type PartnerEndpoint } from "@/lib/backoffice/notifications/testing/partner-endpoint";
import { expect, test } from "./fixtures";
import { APP_PORT, DEMO_PARTNERS, STAFF } from "./support/app";
import { startProcess, waitUntilOk, type Instance, SERVER_ARGS } from "./support/instances";
import { aBookingReference, aCustomer } from "./support/test-data";

/*
 * The partner's event feed (GET /api/events) and the final `not_eligible` outcome, on an app of its
 * own (its own data: only this spec's events, and the demo partner's notification URL is this spec's
 * to point at an endpoint it controls). The partner's endpoint is down while a checkout is financed
 * and another cannot be; the partner catches up through the feed (every event, in order, each with
 * its failed delivery), the pending notification saying the operation status GET said then, the
 * not-eligible session final, read by GET and on its return link. Back up, the endpoint receives
 * the same events, signed, with the same payloads. Then the feed's refusals.
 */
test.describe.configure({ mode: "serial", timeout: 300_000 });

const PORT = APP_PORT + 64;
/** The app's own URL (APP_URL's default): the checkout's pages and the partner's return URL are there. */
const BASE = `http://localhost:${PORT}`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "travel-checkout-events-"));

test.use({ baseURL: BASE, locale: "en-GB" });

let app: Instance | undefined;
let endpoint: PartnerEndpoint | undefined;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  app = startProcess("app", SERVER_ARGS, { PORT: String(PORT), DATA_DIR: dataDir }, PORT);
  await waitUntilOk(`http://127.0.0.1:${PORT}/api/health`, { instance: app, timeoutMs: 180_000 });
  // The partner's endpoint, down (503) until the test says otherwise.
  endpoint = await startPartnerEndpoint(503);
});

test.afterAll(async () => {
  await app?.stop("SIGTERM");
  if (endpoint) {
    endpoint.server.closeAllConnections();
    await new Promise((resolve) => endpoint!.server.close(resolve));
  }
  rmSync(dataDir, { recursive: true, force: true });
});

interface FeedEvent {
  id: string;
  cursor: string;
  type: string;
  timestamp: string;
  data: { id: string; state: string; final: boolean; operation: { id: string; status: string | null } | null };
  delivery: { status: string; attempts: number; lastStatusCode: number | null; deliveredAt: string | null };
}

interface FeedPage {
  events: FeedEvent[];
  nextCursor: string | null;
  hasMore: boolean;
}

const auth = (secret: string = DEMO_PARTNERS.demo.secret) => ({ Authorization: `Bearer ${secret}` });

/** Every event of the partner, `limit` at a time from the start, as its backend would page through them. */
async function catchUp(request: APIRequestContext, limit = 2): Promise<FeedEvent[]> {
  const events: FeedEvent[] = [];
  let after: string | null = null;
  for (;;) {
    const response = await request.get(`/api/events?limit=${limit}${after === null ? "" : `&after=${after}`}`, { headers: auth() });
    expect(response.status()).toBe(200);
    const page = (await response.json()) as FeedPage;
    expect(page.events.length).toBeLessThanOrEqual(limit);
    events.push(...page.events);
    after = page.nextCursor;
    if (!page.hasMore) return events;
  }
}

test("a partner whose endpoint was down catches up through /api/events: every event in order, the payloads later delivered signed", async ({
  page,
  admin,
  checkout,
  checkoutSessions,
  request,
}) => {
  // The demo partner's notification URL is the test's endpoint (down), with a signing secret the test knows.
  await admin.signIn(STAFF.security);
  await admin.notifications.goto();
  await admin.notifications.setUrl(endpoint!.url);
  await expect(admin.notifications.urlSaved).toBeVisible();
  const secret = await admin.notifications.rotate();

  // A checkout financed to the end; what GET says while the customer is at the provider.
  const financed = await checkout.atProvider(checkoutSessions, aBookingReference("EVENTS"), BASE);
  const atProvider = await checkoutSessions.read(financed.sessionId);
  expect(atProvider).toMatchObject({ state: "pending", operation: { status: "CLIENT_REQUESTED" } });
  await checkout.provider.sign();
  await checkout.in("en").status.expectState("confirmed");

  // A checkout that can never be financed: final at once, the way back to the agency saying so.
  const refused = await checkoutSessions.open({
    reference: aBookingReference("EVENTS-NE"),
    customer: aCustomer({ email: "ana+not_eligible@example.com" }),
    returnUrl: `${BASE}/`,
    locale: "en",
  });
  await page.goto(refused.url);
  const en = checkout.in("en");
  await en.details.submit();
  await en.status.expectState("not_eligible");
  const back = new URL((await en.status.payAnotherWay.getAttribute("href"))!);
  expect(`${back.origin}${back.pathname}`).toBe(`${BASE}/`);
  expect(Object.fromEntries(back.searchParams)).toMatchObject({ checkoutSession: refused.id, outcome: "not_eligible" });
  const ended = await checkoutSessions.read(refused.id);
  expect(ended).toMatchObject({ state: "not_eligible", final: true });

  // The worker tries each notification and fails: the feed says so, for every event, in order.
  await expect
    .poll(async () => (await catchUp(request)).every((event) => event.delivery.status === "retrying"), { timeout: 60_000 })
    .toBe(true);
  const events = await catchUp(request);
  // Opaque cursors, one per event; from any of them, the feed goes on with the next event.
  expect(new Set(events.map((event) => event.cursor)).size).toBe(events.length);
  const fromSecond = (await (await request.get(`/api/events?after=${events[1]!.cursor}`, { headers: auth() })).json()) as FeedPage;
  expect(fromSecond.events.map((event) => event.id)).toEqual(events.slice(2).map((event) => event.id));
  const of = (sessionId: string) => events.filter((event) => event.data.id === sessionId).map((event) => event.type);
  const financedTypes = of(financed.sessionId);
  // `approved` may come between, when a read caught the provider's FAVORABLE before CONFIRMED.
  expect(financedTypes.filter((type) => type !== "checkout.session.approved")).toEqual([
    "checkout.session.choosing",
    "checkout.session.pending",
    "checkout.session.confirmed",
  ]);
  expect(of(refused.id)).toEqual(["checkout.session.choosing", "checkout.session.not_eligible"]);
  // Every event of the first checkout was written before the second was opened.
  expect(events.map((event) => event.data.id)).toEqual([...financedTypes.map(() => financed.sessionId), refused.id, refused.id]);
  for (const event of events) {
    expect(event.delivery).toMatchObject({ status: "retrying", lastStatusCode: 503, deliveredAt: null });
    expect(event.delivery.attempts).toBeGreaterThanOrEqual(1);
  }
  // The pending notification carries the status GET answered at that moment; the final one, GET's answer now.
  const pending = events.find((event) => event.data.id === financed.sessionId && event.data.state === "pending")!;
  expect(pending.data.operation).toEqual(atProvider.operation);
  const notEligible = events.at(-1)!;
  expect(notEligible.data).toEqual({
    id: ended.id,
    bookingReference: ended.bookingReference,
    state: "not_eligible",
    final: true,
    operation: ended.operation,
  });

  // The endpoint is back; saving the URL again sends what waited at once instead of after its backoff.
  const before = endpoint!.received.length;
  endpoint!.status = 204;
  await admin.notifications.goto();
  await admin.notifications.setUrl(endpoint!.url);
  await expect(admin.notifications.urlSaved).toBeVisible();
  const deliveredNow = () => endpoint!.received.slice(before);
  await expect
    .poll(() => new Set(deliveredNow().map((received) => String(received.headers["webhook-id"]))).size, { timeout: 60_000 })
    .toBe(events.length);
  for (const event of events) {
    const received = deliveredNow().filter((r) => r.headers["webhook-id"] === event.id);
    expect(received.length, event.type).toBeGreaterThanOrEqual(1);
    for (const delivery of received) {
      expect(verifies(secret, delivery)).toBe(true);
      expect(JSON.parse(delivery.body)).toEqual({ type: event.type, timestamp: event.timestamp, data: event.data });
    }
  }
  await expect.poll(async () => (await catchUp(request, 100)).every((event) => event.delivery.status === "delivered")).toBe(true);
  expect((await catchUp(request, 100)).map((event) => event.id)).toEqual(events.map((event) => event.id));
});

test("the feed: only the caller's events, a 400 naming a bad, altered or another partner's after or limit, 401 without a secret, 405 for other methods", async ({
  request,
}) => {
  const ours = (await (await request.get("/api/events?limit=100", { headers: auth() })).json()) as FeedPage;
  expect(ours.events.length).toBeGreaterThan(0);
  const other = await request.get("/api/events", { headers: auth(DEMO_PARTNERS["demo-blue"].secret) });
  expect(other.status()).toBe(200);
  expect(other.headers()).toMatchObject({ "cache-control": "no-store", "x-ratelimit-limit": expect.stringMatching(/^[0-9]+$/) });
  expect(((await other.json()) as FeedPage).events).toEqual([]);

  const cursor = ours.events[0]!.cursor;
  const [payload, mac] = cursor.split(".") as [string, string];
  const otherPosition = Buffer.from(JSON.stringify([0])).toString("base64url");
  // This partner's cursor, sent by the other partner: not a cursor of that one's feed.
  const theirs = await request.get(`/api/events?after=${cursor}`, { headers: auth(DEMO_PARTNERS["demo-blue"].secret) });
  expect(theirs.status()).toBe(400);
  expect(await theirs.json()).toMatchObject({ error: { code: "validation_failed", fields: [{ field: "after" }] } });
  for (const [query, field] of [
    [`after=${otherPosition}.${mac}`, "after"],
    [`after=${payload}`, "after"],
    [`after=${cursor}x`, "after"],
    ["after=abc", "after"],
    ["after=-1", "after"],
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["after=1&after=2", "after"],
  ] as const) {
    const response = await request.get(`/api/events?${query}`, { headers: auth() });
    expect(response.status(), query).toBe(400);
    expect(response.headers()["x-ratelimit-limit"], query).toMatch(/^[0-9]+$/);
    expect(await response.json()).toMatchObject({ error: { code: "validation_failed", fields: [{ field }] } });
  }
  expect((await request.get("/api/events")).status()).toBe(401);
  const post = await request.post("/api/events", { headers: auth(), data: {} });
  expect(post.status()).toBe(405);
  expect(post.headers()["allow"]).toBe("GET, HEAD, OPTIONS");
  expect(await post.json()).toMatchObject({ error: { code: "method_not_allowed" } });
});
