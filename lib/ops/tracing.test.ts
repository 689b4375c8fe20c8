/**
 * Traces as the operator's collector receives them: the HTTP server's span per request (an
 * agency's `traceparent` continued on /api only), the trace id in the log lines and on the error
 * page, and what any span may carry once exported: a customer's real values and the secrets that
 * pass through a request (in its path, query, headers, an error's message) never leave.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-node";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { renderErrorPage } from "@/lib/embed/error-page";
import { type SAMPLE_CLIENT } from "@/lib/financing/testing/samples";
import { createLogger } from "@/lib/logger";
import { recordSpans, type RecordedSpans } from "@/lib/testing/tracing";
import { contextFromTraceparent, inSpan, noteSessionOnSpan, traceparentWithin } from "@/lib/tracing/spans";
import { createAppServer } from "./app-server";
import { registerErrorPageRenderer } from "./error-pages";
import { closeHttpServers } from "./http-server";

const SESSION_ID = "cs_Q2hlY2tvdXRTZXNzaW9uMTIz";
/** A customer from the details form, the values the checkout's spans could meet unusual enough to be found anywhere. */
const CUSTOMER = {
  firstName: "Eulalia",
  lastName: "Quintanilla Berrocal",
  email: "eulalia.quintanilla@example.net",
  phone: "699871243",
  documentId: "48273915X",
  birthDate: "1983-11-27",
  address: "Calle Zurbarán 17, 2º D",
} satisfies Partial<typeof SAMPLE_CLIENT>;
const SECRETS = {
  apiSecret: "demo_partner_secret_sandbox_only",
  bearer: "Bearer demo_partner_secret_sandbox_only",
  webhookToken: "e2eTraceWebhookToken_0123456789abcdef",
  apiKey: "fk_test_sandbox_agency_101",
  resetToken: "rst_T0kenOfAResetLink_9f8e7d6c5b4a",
};
const NEVER_EXPORTED = { ...CUSTOMER, ...SECRETS, surname: "Quintanilla", digits: "48273915" };

/** Everything of a span the OTLP exporter sends: name, attributes, events, links and status. */
function exported(spans: ReadableSpan[]): string {
  return JSON.stringify(
    spans.map((span) => ({
      name: span.name,
      attributes: span.attributes,
      events: span.events,
      links: span.links,
      status: span.status,
      resource: span.resource.attributes,
    })),
  );
}

function expectNothingPersonal(text: string): void {
  for (const [what, value] of Object.entries(NEVER_EXPORTED)) expect(text.includes(value), `${what} (${value}) was exported`).toBe(false);
}

let recorded: RecordedSpans;
let handler: (request: IncomingMessage, response: ServerResponse) => void;
let port: number;

registerErrorPageRenderer(renderErrorPage);

beforeAll(async () => {
  vi.stubEnv("NODE_ENV", "production");
  recorded = recordSpans();
  const server = createAppServer(async (request, response) => handler(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  vi.unstubAllEnvs();
  await closeHttpServers(1_000);
  await recorded.stop();
});

beforeEach(() => recorded.clear());

async function send(method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers });
  return { status: response.status, body: await response.text() };
}

/** The server span of the request just answered (it ends as the response closes). */
async function serverSpan(): Promise<ReadableSpan> {
  await vi.waitFor(() => expect(recorded.spans().filter((span) => span.kind === SpanKind.SERVER)).toHaveLength(1));
  return recorded.spans().find((span) => span.kind === SpanKind.SERVER)!;
}

const AGENCY_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const AGENCY_TRACEPARENT = `00-${AGENCY_TRACE}-00f067aa0ba902b7-01`;

describe("the HTTP server's span", () => {
  it("continues an agency's traceparent on /api, named by the route's template", async () => {
    let active: string | undefined;
    handler = (_request, response) => {
      active = trace.getActiveSpan()?.spanContext().traceId;
      response.writeHead(201).end("{}");
    };
    await send("POST", "/api/checkout-sessions?x=1", { traceparent: AGENCY_TRACEPARENT });
    const span = await serverSpan();
    expect(span.spanContext().traceId).toBe(AGENCY_TRACE);
    expect(span.parentSpanContext?.spanId).toBe("00f067aa0ba902b7");
    expect(active).toBe(AGENCY_TRACE);
    expect(span.name).toBe("POST /api/checkout-sessions");
    expect(span.attributes).toMatchObject({ "http.route": "/api/checkout-sessions", "http.response.status_code": 201 });
  });

  it("starts a trace of its own for a browser's page, whatever traceparent it sends, and says which session it is about", async () => {
    handler = (_request, response) => {
      // What the checkout's session read does (lib/checkout/session/sessions.ts), under Next's own span.
      void inSpan("render route (app) /checkout/[sessionId]", {}, async () => {
        noteSessionOnSpan(SESSION_ID, AGENCY_TRACEPARENT);
        noteSessionOnSpan(SESSION_ID, AGENCY_TRACEPARENT);
        response.writeHead(200, { "Content-Type": "text/html" }).end("<p>ok</p>");
      });
    };
    await send("GET", `/checkout/${SESSION_ID}?email=${encodeURIComponent(CUSTOMER.email)}`, { traceparent: AGENCY_TRACEPARENT });
    const span = await serverSpan();
    expect(span.spanContext().traceId).not.toBe(AGENCY_TRACE);
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.name).toBe("GET /checkout/[sessionId]");
    expect(span.attributes["checkout.session_id"]).toBe(SESSION_ID);
    // Linked to the session's trace (the call that opened it), not its child.
    expect(span.links.map((link) => link.context.traceId)).toEqual([AGENCY_TRACE]);
  });

  it("a failed page's reference gives the trace id beside the request id", async () => {
    handler = (_request, response) => {
      response.setHeader("x-request-id", "req-trace-0001");
      response.writeHead(500, { "Content-Type": "text/html" }).end("<html>Next's own</html>");
    };
    const answer = await send("GET", "/checkout/cs_failing_page_00001", { accept: "text/html" });
    const span = await serverSpan();
    expect(answer.status).toBe(500);
    expect(answer.body).toContain(`<code>req-trace-0001</code> <code>${span.spanContext().traceId}</code>`);
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });
});

describe("work written for later (a notification)", () => {
  it("hangs from the span that wrote it when that is in the session's trace, else from the session's trace", async () => {
    const stored = AGENCY_TRACEPARENT;
    await inSpan("a status page's request, a trace of its own", {}, async () => expect(traceparentWithin(stored)).toBe(stored));
    await inSpan("a webhook's processing", { parent: contextFromTraceparent(stored) }, async (span) =>
      expect(traceparentWithin(stored)).toBe(`00-${AGENCY_TRACE}-${span.spanContext().spanId}-01`),
    );
    expect(traceparentWithin(null)).toBeUndefined();
  });
});

describe("log lines", () => {
  it("carry the active span's trace and span ids", async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const log = createLogger({ destination, level: "info" });
    log.info("outside any span");
    let ids: { traceId: string; spanId: string } | undefined;
    await inSpan("work", {}, async (span) => {
      ids = span.spanContext();
      log.info("inside");
    });
    const [outside, inside] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(outside).not.toHaveProperty("trace_id");
    expect(inside).toMatchObject({ trace_id: ids!.traceId, span_id: ids!.spanId });
  });
});

describe("what an exported span may carry", () => {
  it("Next's spans: the raw URL reduced to its template, the query, headers, statement values and error messages dropped", () => {
    const next = trace.getTracer("next.js", "16.0.0");
    const span = next.startSpan("GET", {
      kind: SpanKind.SERVER,
      attributes: {
        "http.method": "GET",
        "http.target": `/checkout/${SESSION_ID}?email=${CUSTOMER.email}&phone=${CUSTOMER.phone}`,
        "http.url": `http://localhost:3000/admin/login/reset/${SECRETS.resetToken}?next=/admin`,
        "url.query": `name=${CUSTOMER.firstName}`,
        "next.route": "/checkout/[sessionId]",
        "http.request.header.authorization": SECRETS.bearer,
        "drizzle.query.params": JSON.stringify(CUSTOMER),
        "next.span_name": `POST /api/webhooks/financing/${SECRETS.webhookToken}`,
      },
    });
    span.updateName(`POST /api/webhooks/financing/${SECRETS.webhookToken}?key=${SECRETS.apiKey}`);
    // What a driver's refusal says (PostgreSQL's "Failing row contains (…)"): recorded by Next as the exception.
    span.recordException(
      new Error(
        `Failing row contains (${CUSTOMER.firstName}, ${CUSTOMER.email}, ${CUSTOMER.documentId}, ${CUSTOMER.birthDate}, ${CUSTOMER.address})`,
      ),
    );
    span.setStatus({ code: SpanStatusCode.ERROR, message: `${CUSTOMER.lastName} ${CUSTOMER.phone}` });
    span.end();
    next.startSpan("executing api route (app) /api/checkout-sessions/[id]/route").end();

    const [request, route] = recorded.spans();
    expect(request!.name).toBe("POST /api/webhooks/financing/[token]");
    expect(request!.attributes).toEqual({
      "http.method": "GET",
      "http.target": "/checkout/[sessionId]",
      "http.url": "/admin/login/reset/[token]",
      "next.route": "/checkout/[sessionId]",
      "next.span_name": "POST /api/webhooks/financing/[token]",
    });
    expect(request!.status).toEqual({ code: SpanStatusCode.ERROR });
    expect(request!.events.map((event) => event.attributes)).toEqual([{ "exception.type": "Error" }]);
    expect(route!.name).toBe("executing api route (app) /api/checkout-sessions/[id]/route");
    expectNothingPersonal(exported(recorded.spans()));
  });

  it("a path the app does not know is 'other', never the path itself", () => {
    trace.getTracer("next.js").startSpan(`GET /${CUSTOMER.email}/${CUSTOMER.phone}`).end();
    trace
      .getTracer("next.js")
      .startSpan("GET", {
        attributes: { "http.target": `/eulalia/[x]/${CUSTOMER.documentId}`, "url.full": `https://x.example/${CUSTOMER.email}` },
      })
      .end();
    expect(recorded.spans().map((span) => [span.name, span.attributes["http.target"], span.attributes["url.full"]])).toEqual([
      ["GET other", undefined, undefined],
      ["GET", "other", "other"],
    ]);
  });
});
