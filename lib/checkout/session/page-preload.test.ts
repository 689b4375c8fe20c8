/**
 * The offers and status pages' reads started by the app server's request step as their request
 * arrives (lib/checkout/session/page-preload.ts): which requests start them, that the page then takes them (one
 * session read, at most one upstream call), that nothing is asked upstream for a page that will
 * redirect or an outcome already final, and that a failure reaches the page, not the process. On
 * the built app, e2e/offers.spec.ts › "the pages' reads".
 */
import { Socket } from "node:net";
import { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppContext } from "@/lib/app-context";
import type { Database } from "@/lib/db";
import type { Partner } from "@/lib/partners/partners";
import { decideAtProvider, startSandboxServer } from "@/lib/sandbox/testing/servers";
import type { CheckoutContext } from "./flow";
import { submitCustomer } from "./submit";
import { preloadedOffers, preloadedSession, preloadedStatus, pagePreloadStep } from "./page-preload";
import { createSession, requireSession } from "./sessions";
import {
  BROWSER,
  customerDraft,
  recordingFetch,
  sessionAtProvider,
  sessionInput,
  testContext,
  type RecordedCall,
} from "../testing/context";

let server: Awaited<ReturnType<typeof startSandboxServer>>;
let database: Database;
let ctx: CheckoutContext;
let partner: Partner;
const upstream: RecordedCall[] = [];

/** The app's context as the page gets it (only what the checkout uses is real). */
const context = async () => ctx as unknown as AppContext;

beforeAll(async () => {
  server = await startSandboxServer();
  ({ ctx, database, partner } = await testContext(server.baseUrl, { fetch: recordingFetch(upstream) }));
});

afterAll(async () => {
  await database?.close();
  await server?.close();
});

function request(url: string, headers: Record<string, string> = {}, method = "GET"): IncomingMessage {
  const message = new IncomingMessage(new Socket());
  message.method = method;
  message.url = url;
  message.headers = { host: "localhost:3000", ...headers };
  return message;
}

/**
 * Hands `request` on as the HTTP server does, `page` standing for Next's handling of it: what
 * `page` gives, once the request was handed on.
 */
function handled<T>(request: IncomingMessage, page: () => T, appContext = context): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    pagePreloadStep(appContext)(request, new ServerResponse(request), () => {
      try {
        resolve(page());
      } catch (error) {
        reject(error as Error);
      }
    });
  });
}

/** A session whose customer has sent their data: the offers page shows its plans. */
async function choosingSession(): Promise<string> {
  const { session } = await createSession(ctx.db, partner, sessionInput());
  expect(await submitCustomer(ctx, session.id, customerDraft(), BROWSER)).toEqual({ ok: true });
  return session.id;
}

describe("the offers page's reads, started as its request arrives", () => {
  it("are under way before Next handles the request, and the page takes them: one upstream call, with the request's id", async () => {
    const id = await choosingSession();
    upstream.length = 0;
    const page = handled(request(`/checkout/${id}/offers?n=12`, { "x-request-id": "agency-trace-preload-1" }), () => {
      // Next gets the request only once the call is on its way: its first steps run while the
      // partner API answers, not between the request and the call.
      expect(
        upstream.map((call) => call.method),
        "the call was sent before Next got the request",
      ).toEqual(["GET"]);
      // What the page does, later in the same request.
      const session = preloadedSession(id);
      expect(session, "the session read is shared with the layout and the page").toBeDefined();
      expect(preloadedSession(id), "the same read for every part of the page").toBe(session);
      return Promise.all([session!, preloadedOffers(id)]);
    });
    const [read, offers] = await page;
    expect(read.session?.id).toBe(id);
    expect(read.partner?.id).toBe(partner.id);
    expect(offers?.kind).toBe("offers");
    expect(upstream.filter((call) => call.path.startsWith("/financing/"))).toEqual([
      { method: "GET", path: `/financing/${read.session!.operationId}`, requestId: "agency-trace-preload-1" },
    ]);
  });

  it("ask nothing upstream for a session the page will send elsewhere (no data sent yet)", async () => {
    const { session } = await createSession(ctx.db, partner, sessionInput());
    upstream.length = 0;
    const offers = await handled(request(`/checkout/${session.id}/offers`), () => preloadedOffers(session.id));
    expect(offers, "the page redirects to the form; had it not, it would ask itself").toBeUndefined();
    expect(upstream).toEqual([]);
  });

  it("are not started for another page, method, a prefetch or a trailing slash; the page then reads as before", async () => {
    const id = await choosingSession();
    upstream.length = 0;
    for (const [url, headers, method] of [
      [`/checkout/${id}`, {}, "GET"],
      [`/checkout/${id}/status/data`, {}, "GET"],
      [`/checkout/${id}/return/success`, {}, "GET"],
      [`/checkout/${id}/status`, {}, "HEAD"],
      [`/checkout/${id}/status`, { "next-router-prefetch": "1" }, "GET"],
      [`/checkout/${id}/offers`, {}, "HEAD"],
      [`/checkout/${id}/offers`, {}, "POST"],
      [`/checkout/${id}/offers`, { "next-router-prefetch": "1" }, "GET"],
      [`/checkout/${id}/offers/`, {}, "GET"],
      [`/checkout/${id}/offersx`, {}, "GET"],
    ] as const) {
      let taken: readonly unknown[] | undefined;
      const message = request(url, headers, method);
      pagePreloadStep(context)(message, new ServerResponse(message), () => {
        taken = [preloadedSession(id), preloadedOffers(id), preloadedStatus(id)];
      });
      expect(taken, `${method} ${url}: handed on at once, nothing started`).toEqual([undefined, undefined, undefined]);
    }
    expect(upstream).toEqual([]);
  });

  it("belong to their request and session only", async () => {
    const id = await choosingSession();
    const other = await choosingSession();
    const [mine, notMine] = await handled(request(`/checkout/${id}/offers`), () =>
      Promise.all([preloadedOffers(id), preloadedOffers(other)]),
    );
    expect(mine?.kind).toBe("offers");
    expect(notMine, "another session's page reads its own").toBeUndefined();
    expect(preloadedSession(id), "outside the request").toBeUndefined();
  });

  it("hand a failure to the page, which reports it, and never leave it unhandled when the page does not come", async () => {
    const id = await choosingSession();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const down = async (): Promise<AppContext> => {
        throw new Error("database unreachable");
      };
      // Handed on all the same; the page awaits the session read: it fails as its own read would have.
      const { read } = await handled(request(`/checkout/${id}/offers`), () => ({ read: preloadedSession(id) }), down);
      await expect(read).rejects.toThrow("database unreachable");
      // A request that fails before the page (nothing takes the reads).
      await handled(request(`/checkout/${id}/offers`), () => undefined, down);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});

describe("the status page's reads, started as its request arrives", () => {
  /** A session whose customer chose a plan and is at the provider: the status page asks for the status. */
  const atProvider = async () => (await sessionAtProvider(ctx, partner)).id;

  const statusCalls = () => upstream.filter((call) => call.path.endsWith("/status"));

  it("send the status call before Next handles the request, and the page takes it: one call, with the request's id", async () => {
    const id = await atProvider();
    upstream.length = 0;
    const [read, status, offers] = await handled(request(`/checkout/${id}/status`, { "x-request-id": "agency-trace-preload-2" }), () => {
      expect(
        upstream.map((call) => call.method),
        "the call was sent before Next got the request",
      ).toEqual(["GET"]);
      return Promise.all([preloadedSession(id)!, preloadedStatus(id), preloadedOffers(id)]);
    });
    expect(read.session?.id).toBe(id);
    expect(status).toMatchObject({ state: "pending", final: false });
    expect(offers, "the status page asks for no plans").toBeUndefined();
    expect(statusCalls()).toEqual([
      { method: "GET", path: `/operations/${read.session!.operationId}/status`, requestId: "agency-trace-preload-2" },
    ]);
  });

  it("ask nothing upstream for an outcome already final, nor for a session not at the provider yet, nor an unknown one", async () => {
    const settled = await atProvider();
    await decideAtProvider(server.origin, (await requireSession(ctx.db, settled)).operationId!);
    // The first read after the decision records it (one call); once final, nothing more is asked.
    expect(await handled(request(`/checkout/${settled}/status`), () => preloadedStatus(settled))).toMatchObject({ final: true });
    upstream.length = 0;
    expect(await handled(request(`/checkout/${settled}/status`), () => preloadedStatus(settled))).toMatchObject({
      state: "confirmed",
      final: true,
    });
    const { session: open } = await createSession(ctx.db, partner, sessionInput());
    expect(await handled(request(`/checkout/${open.id}/status`), () => preloadedStatus(open.id))).toMatchObject({ state: "open" });
    const unknown = "cs_unknown_preload_0000";
    expect(await handled(request(`/checkout/${unknown}/status`), () => preloadedStatus(unknown)), "the page answers 404").toBeUndefined();
    expect(upstream).toEqual([]);
  });
});
