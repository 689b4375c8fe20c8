/**
 * A partner notification's delivery, traced: a child of the span that wrote it (its stored
 * `traceparent`: the checkout's trace), and the POST carries its own `traceparent`, so the
 * partner's backend may continue the trace. Against a real local endpoint.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SpanKind } from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db";
import { checkoutSessions, partnerNotifications, partners } from "@/lib/db/schema";
import { recordSpans, type RecordedSpans } from "@/lib/testing/tracing";
import type { CheckoutContext } from "../session/flow";
import { storedSession, testContext } from "../testing/context";
import { deliverDueNotifications, newSigningSecret } from "./notifications";

const CHECKOUT_TRACE = "0af7651916cd43dd8448eb211c80319c";
const PLAN_CHOSEN_SPAN = "b7ad6b7169203331";

let database: Database;
let ctx: CheckoutContext;
let server: Server;
let recorded: RecordedSpans;
const received: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  recorded = recordSpans();
  ({ ctx, database } = await testContext("http://127.0.0.1:9/sandbox/v1"));
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
