/**
 * A checkout's later work, traced in the checkout's trace (the `traceparent` stored with the
 * session when the plan was chosen): a partner notification's delivery is a child of the span that
 * wrote it, and its POST carries its own `traceparent`, so the partner's backend may continue the
 * trace; the reconciler's re-check of an open outcome is a child of the session's trace, with its
 * financing call under it. Against a real local endpoint and the sandbox.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SpanKind } from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db";
import { eq } from "drizzle-orm";
import { checkoutSessions, partnerNotifications, partners } from "@/lib/db/schema";
import type { Partner } from "@/lib/partners/partners";
import { startSandboxServer } from "@/lib/sandbox/testing/servers";
import { recordSpans, type RecordedSpans } from "@/lib/testing/tracing";
import type { CheckoutContext } from "../session/flow";
import { sessionAtProvider, sessionInput, storedSession, testContext } from "../testing/context";
import { newSigningSecret } from "./notification-send";
import { deliverDueNotifications } from "./notifications";
import { reconcile, RECONCILE_AFTER_MS } from "./reconciler";

const CHECKOUT_TRACE = "0af7651916cd43dd8448eb211c80319c";
const PLAN_CHOSEN_SPAN = "b7ad6b7169203331";

let database: Database;
let ctx: CheckoutContext;
let partner: Partner;
let server: Server;
let sandbox: Awaited<ReturnType<typeof startSandboxServer>>;
let recorded: RecordedSpans;
const received: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  recorded = recordSpans();
  sandbox = await startSandboxServer();
  ({ ctx, database, partner } = await testContext(sandbox.baseUrl, { appUrl: "http://127.0.0.1:9" }));
  server = createServer((request, response) => {
    request.resume();
    received.push(request.headers);
    response.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await sandbox?.close();
  await database?.close();
  await recorded.stop();
});

describe("a partner notification's delivery, traced", () => {
  it("is a child of the checkout's trace, and its POST sends the delivery's traceparent", async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/notifications`;
    await ctx.db.insert(partners).values({
      id: "partner_traced",
      name: "Traced",
      allowedOrigins: ["http://127.0.0.1:3999"],
      notificationUrl: url,
      signingSecret: newSigningSecret(),
    });
    const traceParent = `00-${CHECKOUT_TRACE}-${PLAN_CHOSEN_SPAN}-01`;
    await ctx.db
      .insert(checkoutSessions)
      .values({ ...storedSession({ id: "cs_traced_0001", reference: "BK-TRACED-1", partnerId: "partner_traced" }), traceParent });
    await ctx.db.insert(partnerNotifications).values({
      id: "msg_traced_0001",
      sessionId: "cs_traced_0001",
      partnerId: "partner_traced",
      partnerSeq: 1,
      state: "confirmed",
      payload: { type: "checkout.session.confirmed" } as never,
      traceParent,
    });

    expect(await deliverDueNotifications(ctx, { environment: "sandbox" })).toBe(1);

    const [delivery] = recorded.named("checkout.notification.deliver");
    expect(delivery).toBeDefined();
    expect(delivery!.kind).toBe(SpanKind.CLIENT);
    expect(delivery!.spanContext().traceId).toBe(CHECKOUT_TRACE);
    expect(delivery!.parentSpanContext?.spanId).toBe(PLAN_CHOSEN_SPAN);
    expect(delivery!.attributes).toMatchObject({
      "checkout.session_id": "cs_traced_0001",
      "notification.id": "msg_traced_0001",
      "notification.state": "confirmed",
      "http.response.status_code": 204,
    });
    expect(received).toHaveLength(1);
    expect(received[0]!.traceparent).toBe(`00-${CHECKOUT_TRACE}-${delivery!.spanContext().spanId}-01`);
    expect(received[0]!["webhook-id"]).toBe("msg_traced_0001");
  });
});

describe("the reconciler's re-check of an open outcome, traced", () => {
  it("is a child of the session's trace, with its status read from the financing API under it", async () => {
    const session = await sessionAtProvider(ctx, partner, sessionInput({}, "http://127.0.0.1:9"));
    const traceParent = `00-${CHECKOUT_TRACE}-${PLAN_CHOSEN_SPAN}-01`;
    await ctx.db.update(checkoutSessions).set({ traceParent }).where(eq(checkoutSessions.id, session.id));
    recorded.clear();

    await reconcile(ctx, { holder: "tracing-test", now: new Date(Date.now() + RECONCILE_AFTER_MS + 1000) });

    const recheck = recorded.named("checkout.reconcile.session").find((span) => span.attributes["checkout.session_id"] === session.id);
    expect(recheck, "the session's re-check").toBeDefined();
    expect(recheck!.spanContext().traceId).toBe(CHECKOUT_TRACE);
    expect(recheck!.parentSpanContext?.spanId).toBe(PLAN_CHOSEN_SPAN);
    const calls = recorded.spans().filter((span) => span.parentSpanContext?.spanId === recheck!.spanContext().spanId);
    expect(calls.map((span) => span.name)).toContain("financing GET /operations/{id}/status");
  });
});
