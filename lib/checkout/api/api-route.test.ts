/**
 * The checkout sessions API's wrapper (checkoutApiRoute) around the real handlers: the API's
 * headers and version on every answer, an unknown version refused, and Idempotency-Key on POST
 * (replay, another body, in flight, which answers are kept, per partner, behaviour unchanged
 * without it). On PostgreSQL too: two requests with one key at once open one session.
 */
import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/app-error";
import type { Database } from "@/lib/db";
import { checkoutSessions, idempotencyKeys } from "@/lib/db/schema";
import { throwawayDatabase } from "@/lib/db/testing/throwaway";
import { DEMO_BLUE_PARTNER_ID, DEMO_BLUE_PARTNER_SECRET, DEMO_PARTNER_ID, seedDemoPartner } from "@/lib/demo/seed";
import type { CheckoutContext } from "../session/flow";
import { DEMO_SECRET, sessionInput, testContext, unlimitedThrottles } from "../testing/context";
import { answerCheckoutApi } from "./api-route";
import { IDEMPOTENCY_KEY_TTL_MS } from "./idempotency";
import { handleCreateSession, handleGetSession, type SessionsApiThrottles } from "./sessions-api";
import { CURRENT_CHECKOUT_API_VERSION } from "./versions";

function post(body: unknown, headers: Record<string, string> = {}, secret = DEMO_SECRET): Request {
  return new Request("http://localhost/api/checkout-sessions", {
    method: "POST",
    headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

function getRequest(id: string, headers: Record<string, string> = {}): Request {
  return new Request(`http://localhost/api/checkout-sessions/${id}`, { headers: { Authorization: `Bearer ${DEMO_SECRET}`, ...headers } });
}

interface Answer {
  status: number;
  headers: Headers;
  body: { id?: string; error?: { code: string; message: string; fields?: { field: string; message: string }[] } };
}

async function read(response: Response): Promise<Answer> {
  return { status: response.status, headers: response.headers, body: (await response.json()) as Answer["body"] };
}

function wrapper(ctx: CheckoutContext, throttles: SessionsApiThrottles, now?: () => Date) {
  const deps = { context: () => Promise.resolve(ctx), throttles, ...(now ? { now } : {}) };
  /** The create route as the app has it, counting the handler's runs. */
  const create = (request: Request, runs = { count: 0 }, before?: () => Promise<void>) =>
    answerCheckoutApi(
      request,
      { kind: "create", scope: "sessions:open" },
      async (r) => {
        runs.count += 1;
        await before?.();
        const { status, body } = await handleCreateSession(r, throttles, deps.context);
        return Response.json(body, { status });
      },
      deps,
    ).then(read);
  const get = (request: Request) => {
    const id = new URL(request.url).pathname.split("/").at(-1)!;
    return answerCheckoutApi(
      request,
      { kind: "read", scope: "sessions:read" },
      async (r) => Response.json(await handleGetSession(r, id, throttles, deps.context)),
      deps,
    ).then(read);
  };
  return { create, get, deps };
}

describe("the checkout sessions API's wrapper (PGlite)", () => {
  let database: Database;
  let ctx: CheckoutContext;
  let api: ReturnType<typeof wrapper>;

  beforeAll(async () => {
    ({ ctx, database } = await testContext("http://127.0.0.1:9/v1"));
    await seedDemoPartner(ctx.db, { secret: DEMO_SECRET, appUrl: ctx.appUrl, secondPartner: true });
    api = wrapper(ctx, unlimitedThrottles());
  });
  afterAll(async () => {
    await database?.close();
  });

  describe("the version", () => {
    it("is on every answer: created, read, refused for the secret, not found", async () => {
      const created = await api.create(post(sessionInput()));
      const read = await api.get(getRequest(created.body.id!));
      const unauthorized = await api.create(post(sessionInput(), {}, "not_a_secret_of_anyone_0123"));
      const notFound = await api.get(getRequest("cs_doesnotexist000000000000"));
      expect([created.status, read.status, unauthorized.status, notFound.status]).toEqual([201, 200, 401, 404]);
      for (const answer of [created, read, unauthorized, notFound]) {
        expect(answer.headers.get("Checkout-Api-Version")).toBe(CURRENT_CHECKOUT_API_VERSION);
        expect(answer.headers.get("Cache-Control")).toBe("no-store");
        expect(answer.headers.get("X-RateLimit-Limit")).toMatch(/^\d+$/);
      }
    });

    it("may be pinned; an unknown one is a 400 naming the header, before anything runs", async () => {
      const pinned = await api.create(post(sessionInput(), { "Checkout-Api-Version": CURRENT_CHECKOUT_API_VERSION }));
      expect(pinned.status).toBe(201);
      expect(pinned.headers.get("Checkout-Api-Version")).toBe(CURRENT_CHECKOUT_API_VERSION);
      for (const unknown of ["2020-01-01", "", "latest"]) {
        const runs = { count: 0 };
        const refused = await api.create(post(sessionInput(), { "Checkout-Api-Version": unknown }), runs);
        expect(refused.status).toBe(400);
        expect(refused.body.error).toMatchObject({
          code: "unsupported_api_version",
          fields: [{ field: "Checkout-Api-Version", message: `must be one of: ${CURRENT_CHECKOUT_API_VERSION}` }],
        });
        expect(refused.headers.get("Checkout-Api-Version")).toBe(CURRENT_CHECKOUT_API_VERSION);
        expect(runs.count).toBe(0);
      }
    });
  });

  describe("Idempotency-Key", () => {
    let n = 0;
    const aKey = () => `test-key-${Date.now()}-${(n += 1)}`;

    it("without it, nothing changes: the same booking again is the same session (200), never a replay", async () => {
      const input = sessionInput();
      const first = await api.create(post(input));
      const again = await api.create(post(input));
      expect([first.status, again.status]).toEqual([201, 200]);
      expect(again.body.id).toBe(first.body.id);
      expect(again.headers.get("Idempotent-Replayed")).toBeNull();
    });

    it("the same key and body again: the first answer replayed (its status, its body), the handler run once", async () => {
      const key = aKey();
      const input = sessionInput();
      const runs = { count: 0 };
      const first = await api.create(post(input, { "Idempotency-Key": key }), runs);
      expect(first.status).toBe(201);
      expect(first.headers.get("Idempotent-Replayed")).toBeNull();
      // The same JSON written in another order is the same request.
      const reordered = JSON.stringify({ returnUrl: input.returnUrl, booking: input.booking });
      for (const body of [input, reordered]) {
        const again = await api.create(post(body, { "Idempotency-Key": key }), runs);
        expect(again.status).toBe(201);
        expect(again.body).toEqual(first.body);
        expect(again.headers.get("Idempotent-Replayed")).toBe("true");
        expect(again.headers.get("Checkout-Api-Version")).toBe(CURRENT_CHECKOUT_API_VERSION);
        expect(again.headers.get("Cache-Control")).toBe("no-store");
      }
      expect(runs.count).toBe(1);
    });

    it("the same key with another body: 422 idempotency_key_reused naming the header, nothing run", async () => {
      const key = aKey();
      await api.create(post(sessionInput(), { "Idempotency-Key": key }));
      const runs = { count: 0 };
      const other = await api.create(post(sessionInput(), { "Idempotency-Key": key }), runs);
      expect(other.status).toBe(422);
      expect(other.body.error).toMatchObject({ code: "idempotency_key_reused", fields: [{ field: "Idempotency-Key" }] });
      expect(other.body.error!.message).toContain("Idempotency-Key");
      expect(runs.count).toBe(0);
    });

    it("the same key while the first is being answered: 409 idempotency_key_in_use with Retry-After, then its answer", async () => {
      const key = aKey();
      const input = sessionInput();
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      const runs = { count: 0 };
      const first = api.create(post(input, { "Idempotency-Key": key }), runs, async () => {
        started();
        await held;
      });
      await running;
      const during = await api.create(post(input, { "Idempotency-Key": key }), runs);
      expect(during.status).toBe(409);
      expect(during.body.error).toMatchObject({ code: "idempotency_key_in_use", fields: [{ field: "Idempotency-Key" }] });
      expect(Number(during.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
      release();
      const answered = await first;
      expect(answered.status).toBe(201);
      const after = await api.create(post(input, { "Idempotency-Key": key }), runs);
      expect(after).toMatchObject({ status: 201, body: answered.body });
      expect(runs.count).toBe(1);
    });

    it("is kept per partner: another partner's request with the same key is its own", async () => {
      const key = aKey();
      const mine = await api.create(post(sessionInput(), { "Idempotency-Key": key }));
      const theirs = await api.create(post(sessionInput(), { "Idempotency-Key": key }, DEMO_BLUE_PARTNER_SECRET));
      expect([mine.status, theirs.status]).toEqual([201, 201]);
      expect(theirs.headers.get("Idempotent-Replayed")).toBeNull();
      const rows = await ctx.db
        .select({ partnerId: idempotencyKeys.partnerId })
        .from(idempotencyKeys)
        .where(eq(idempotencyKeys.key, key))
        .orderBy(idempotencyKeys.partnerId);
      expect(rows.map((row) => row.partnerId)).toEqual([DEMO_PARTNER_ID, DEMO_BLUE_PARTNER_ID]);
    });

    it("keeps a refusal for what the request says (a 400): replayed, not validated again", async () => {
      const key = aKey();
      const runs = { count: 0 };
      const bad = { ...sessionInput(), returnUrl: "ftp://elsewhere.example/back" };
      const first = await api.create(post(bad, { "Idempotency-Key": key }), runs);
      expect(first.status).toBe(400);
      const again = await api.create(post(bad, { "Idempotency-Key": key }), runs);
      expect(again).toMatchObject({ status: 400, body: first.body });
      expect(again.headers.get("Idempotent-Replayed")).toBe("true");
      expect(runs.count).toBe(1);
    });

    it("keeps no 5xx, no 429 and no answer with Retry-After: the same key runs again", async () => {
      const key = aKey();
      const input = sessionInput();
      let fail: AppError | Error | undefined = new Error("the database said something unexpected");
      const deps = api.deps;
      const runs = { count: 0 };
      const create = () =>
        answerCheckoutApi(
          post(input, { "Idempotency-Key": key }),
          { kind: "create", scope: "sessions:open" },
          async (request) => {
            runs.count += 1;
            if (fail) throw fail;
            const { status, body } = await handleCreateSession(request, deps.throttles, deps.context);
            return Response.json(body, { status });
          },
          deps,
        ).then(read);
      expect((await create()).status).toBe(500);
      fail = new AppError("rate_limited", "Too many", { retryAfterS: 3 });
      const limited = await create();
      expect(limited.status).toBe(429);
      expect(limited.headers.get("Idempotent-Replayed")).toBeNull();
      // "Not yet" (a customer's data in use, with Retry-After) is no lasting answer either.
      fail = new AppError("customer_data_in_use", "In use", { retryAfterS: 600 });
      const notYet = await create();
      expect(notYet.status).toBe(409);
      expect(notYet.headers.get("Retry-After")).toBe("600");
      fail = undefined;
      expect((await create()).status).toBe(201);
      const replayed = await create();
      expect(replayed.status).toBe(201);
      expect(replayed.headers.get("Idempotent-Replayed")).toBe("true");
      expect(runs.count).toBe(4);
    });

    it("a malformed key is a 400 naming the header, and a wrong secret a 401, before any key is kept", async () => {
      const malformed = await api.create(post(sessionInput(), { "Idempotency-Key": "k".repeat(256) }));
      expect(malformed.status).toBe(400);
      expect(malformed.body.error).toMatchObject({ code: "validation_failed", fields: [{ field: "Idempotency-Key" }] });
      const key = aKey();
      const anonymous = await api.create(post(sessionInput(), { "Idempotency-Key": key }, "not_a_secret_of_anyone_0123"));
      expect(anonymous.status).toBe(401);
      expect(await ctx.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toEqual([]);
    });

    it("is forgotten after 24 hours: the same key then runs the request again", async () => {
      const key = aKey();
      const input = sessionInput();
      let now = new Date();
      const clocked = wrapper(ctx, unlimitedThrottles(), () => now);
      const runs = { count: 0 };
      expect((await clocked.create(post(input, { "Idempotency-Key": key }), runs)).status).toBe(201);
      now = new Date(now.getTime() + IDEMPOTENCY_KEY_TTL_MS);
      // Run again: the booking's own idempotency answers the same session (200), not a replay.
      const later = await clocked.create(post(input, { "Idempotency-Key": key }), runs);
      expect(later.status).toBe(200);
      expect(later.headers.get("Idempotent-Replayed")).toBeNull();
      expect(runs.count).toBe(2);
    });

    it("is not looked at on a GET", async () => {
      const created = await api.create(post(sessionInput()));
      expect((await api.get(getRequest(created.body.id!, { "Idempotency-Key": "k".repeat(300) }))).status).toBe(200);
    });
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)("the checkout sessions API's wrapper (PostgreSQL)", () => {
  const throwaway = throwawayDatabase("idempotency_api");

  it("two requests with one key at once, on two instances: the session is opened once, the other told so", async () => {
    // Two instances: each its own pool on the one database.
    const one = await testContext("http://127.0.0.1:9/v1", { databaseUrl: throwaway.url });
    const two = await testContext("http://127.0.0.1:9/v1", { databaseUrl: throwaway.url });
    try {
      for (let round = 0; round < 3; round += 1) {
        const input = sessionInput();
        const key = `pg-race-${round}-${Date.now()}`;
        const runs = { count: 0 };
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        // The handler waits until the other request has been answered: both claimed the key while neither had an answer.
        const a = wrapper(one.ctx, unlimitedThrottles()).create(post(input, { "Idempotency-Key": key }), runs, () => held);
        const b = wrapper(two.ctx, unlimitedThrottles()).create(post(input, { "Idempotency-Key": key }), runs, () => held);
        const loser = await Promise.race([a, b]);
        expect(loser.status).toBe(409);
        expect(loser.body.error?.code).toBe("idempotency_key_in_use");
        release();
        const [first, second] = await Promise.all([a, b]);
        const winner = first.status === 409 ? second : first;
        expect(winner.status).toBe(201);
        expect(runs.count).toBe(1);
        const sessions = await one.ctx.db
          .select({ n: count() })
          .from(checkoutSessions)
          .where(
            and(eq(checkoutSessions.partnerId, DEMO_PARTNER_ID), eq(checkoutSessions.bookingReference, input.booking.bookingReference)),
          );
        expect(sessions[0]!.n).toBe(1);
        // And afterwards, from either instance: the answer, replayed.
        const replayed = await wrapper(two.ctx, unlimitedThrottles()).create(post(input, { "Idempotency-Key": key }), runs);
        expect(replayed).toMatchObject({ status: 201, body: winner.body });
        expect(replayed.headers.get("Idempotent-Replayed")).toBe("true");
      }
    } finally {
      await Promise.all([one.database.close(), two.database.close()]);
    }
  });
});
