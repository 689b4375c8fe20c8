import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "./fixtures";
import { CheckoutPages } from "./pages/checkout-pages";
import { APP_PORT, DEMO_PARTNERS } from "./support/app";
import { CheckoutSessionsApi } from "./support/checkout-sessions";
import { startProcess, waitForAppAndSandbox, type Instance, SERVER_ARGS } from "./support/instances";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "./support/otlp-receiver";
import { SANDBOX_AGENCY_KEY } from "./support/sandbox";
import { aCustomer, dniOf, type CustomerDetails } from "./support/test-data";

/*
 * One checkout as an operator's tracing tool sees it (docs/operators/monitoring.md, "Traces"): the
 * built app runs with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a small OTLP receiver on loopback,
 * the agency's backend opens a session (with a traceparent of its own), the customer goes through
 * it, the partner API's webhook comes and the agency is notified. The receiver must see all of it
 * as linked spans (the session id on each, the later work in the trace where the plan was chosen),
 * and none of the customer's data or of the secrets that went through.
 */

const PORT = APP_PORT + 62;
const ORIGIN = `http://localhost:${PORT}`;
const WEBHOOK_TOKEN = "e2eTracesWebhookToken_0123456789abcdef";
const AGENCY_TRACE_ID = "5a8c1e2f9b7d4c3aa1b2c3d4e5f60718";
const AGENCY_TRACEPARENT = `00-${AGENCY_TRACE_ID}-7d1e2f3a4b5c6d7e-01`;

/** A customer whose every value is unusual enough to be found in a span if it ever got there. */
const CUSTOMER: CustomerDetails = aCustomer({
  firstName: "Remedios",
  lastName: "Villaescusa Peñalver",
  email: "remedios.villaescusa@example.net",
  phone: "699342871",
  documentId: dniOf(71938264),
  birthDate: "1979-03-14",
  address: "Avenida Ruzafa 41, 5º B",
  postalCode: "46006",
});

const NEVER_EXPORTED: Record<string, string> = {
  "the customer's e-mail": CUSTOMER.email,
  "the e-mail local part": "remedios.villaescusa",
  "the customer's first name": CUSTOMER.firstName,
  "the customer's surname": "Villaescusa",
  "the customer's phone": CUSTOMER.phone,
  "the customer's document number": CUSTOMER.documentId,
  "the document's digits": CUSTOMER.documentId.slice(0, 8),
  "the customer's birth date": CUSTOMER.birthDate,
  "the customer's address": "Ruzafa",
  "the partner API key": SANDBOX_AGENCY_KEY,
  "the webhook token": WEBHOOK_TOKEN,
  "the partner's API secret": DEMO_PARTNERS.demo.secret,
};

test.describe.configure({ mode: "serial", timeout: 240_000 });
test.use({ baseURL: ORIGIN, locale: "es-ES" });

let server: Instance;
let receiver: OtlpReceiver;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  receiver = await startOtlpReceiver();
  dataDir = mkdtempSync(path.join(os.tmpdir(), "travel-checkout-traces-"));
  server = startProcess(
    "traces",
    SERVER_ARGS,
    {
      PORT: String(PORT),
      APP_URL: ORIGIN,
      DATA_DIR: dataDir,
      WEBHOOK_TOKEN,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_SERVICE_NAME: "checkout-e2e",
      // Spans leave a fifth of a second after they end, not five seconds.
      OTEL_BSP_SCHEDULE_DELAY: "200",
    },
    PORT,
  );
  await waitForAppAndSandbox(ORIGIN, server, SANDBOX_AGENCY_KEY);
});

// What the receiver got, kept with the test's results for whoever reads a failure.
test.afterEach(async ({}, testInfo) => {
  if (!receiver) return;
  const file = testInfo.outputPath("spans.json");
  writeFileSync(file, JSON.stringify(receiver.spans(), null, 2));
  await testInfo.attach("spans.json", { path: file, contentType: "application/json" });
});

test.afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function named(name: string, sessionId?: string): ReceivedSpan[] {
  return receiver
    .spans()
    .filter((span) => span.name === name && (sessionId === undefined || span.attributes["checkout.session_id"] === sessionId));
}

test("one checkout, from the agency's call to its notification, as linked spans with nothing personal in them", async ({
  page,
  request,
}) => {
  const checkout = new CheckoutPages(page, "es");
  const sessions = new CheckoutSessionsApi(request, DEMO_PARTNERS.demo, ORIGIN);

  // The agency's backend opens the session inside a trace of its own.
  const opened = await sessions.postSession({ customer: CUSTOMER, returnUrl: `${ORIGIN}/` }, { traceparent: AGENCY_TRACEPARENT });
  expect(opened.status(), await opened.text()).toBe(201);
  const session = (await opened.json()) as { id: string; url: string };

  // The customer, in the browser: details, offers, a plan, the provider, the outcome.
  await checkout.completePrefilled(session.url, CUSTOMER);

  // The webhook processed and the agency told of the outcome, exported.
  await expect
    .poll(
      () => named("checkout.notification.deliver", session.id).filter((span) => span.attributes["notification.state"] === "confirmed"),
      {
        timeout: 60_000,
      },
    )
    .toHaveLength(1);
  await expect.poll(() => named("checkout.webhook.process", session.id).length, { timeout: 30_000 }).toBeGreaterThan(0);

  const spans = receiver.spans();
  expect(new Set(spans.map((span) => span.service))).toEqual(new Set(["checkout-e2e"]));

  // 1. The API call that opened it continues the agency's trace.
  const [apiCall] = spans.filter((span) => span.name === "POST /api/checkout-sessions" && span.scope === "travel-financing-checkout");
  expect(apiCall).toMatchObject({ traceId: AGENCY_TRACE_ID, parentSpanId: "7d1e2f3a4b5c6d7e" });
  expect(apiCall!.attributes).toMatchObject({ "checkout.session_id": session.id, "http.response.status_code": 201 });

  // 2. The customer's pages: traces of their own, each linked to the session's trace (the one that
  // opened it, until the plan is chosen; the plan's after).
  const pages = spans.filter(
    (span) =>
      span.scope === "travel-financing-checkout" &&
      /^(GET|POST) \/checkout\/\[sessionId\]/.test(span.name) &&
      span.attributes["checkout.session_id"] === session.id,
  );
  expect(pages.map((span) => span.name)).toEqual(expect.arrayContaining(["GET /checkout/[sessionId]", "GET /checkout/[sessionId]/offers"]));
  for (const pageSpan of pages) {
    expect(pageSpan.traceId).not.toBe(AGENCY_TRACE_ID);
    expect(pageSpan.links.length, `${pageSpan.name} is linked to the session's trace`).toBe(1);
  }
  for (const details of pages.filter((span) => span.name === "GET /checkout/[sessionId]")) {
    expect(details.links.map((link) => link.traceId)).toEqual([AGENCY_TRACE_ID]);
  }
  // Next's own spans of those pages sit under ours.
  const pageTraces = new Set(pages.map((span) => span.traceId));
  expect(spans.some((span) => span.scope !== "travel-financing-checkout" && pageTraces.has(span.traceId))).toBe(true);

  // 3. The financing calls: the operation created with the details, the plan requested with the choice.
  const [created] = spans.filter((span) => span.name === "financing POST /operations");
  const [requested] = spans.filter((span) => span.name === "financing POST /financing");
  expect(created, "the operation's creation").toBeDefined();
  expect(requested, "the plan's request").toBeDefined();
  expect(requested!.attributes).toMatchObject({ "url.template": "/financing", "server.address": "localhost" });
  const planTrace = requested!.traceId;
  expect(pageTraces.has(planTrace)).toBe(true);
  // The pages after the choice (the provider's return, the status) are linked to the plan's trace.
  const afterChoice = pages.filter((span) => /\/(status|return)/.test(span.name));
  expect(afterChoice.length).toBeGreaterThan(0);
  for (const later of afterChoice) expect(later.links.map((link) => link.traceId)).toEqual([planTrace]);

  // 4. The webhook: taken in on its request, processed in the trace where the plan was chosen.
  // The delivery's request and its processing carry the event's key, so one query ties them.
  const received = named("checkout.webhook.receive");
  expect(received.length).toBeGreaterThan(0);
  for (const processed of named("checkout.webhook.process", session.id)) {
    expect(processed.traceId).toBe(planTrace);
    const key = {
      "webhook.event_id": processed.attributes["webhook.event_id"],
      "financing.operation_id": processed.attributes["financing.operation_id"],
    };
    expect(
      received.some(
        (intake) =>
          intake.attributes["webhook.event_id"] === key["webhook.event_id"] &&
          intake.attributes["financing.operation_id"] === key["financing.operation_id"],
      ),
      `the delivery of ${JSON.stringify(key)}`,
    ).toBe(true);
  }

  // 5. The notifications to the agency: in the trace where the plan was chosen (whichever request or
  // work found the outcome), and the agency's endpoint continues it.
  const delivered = named("checkout.notification.deliver", session.id);
  const confirmed = delivered.find((span) => span.attributes["notification.state"] === "confirmed")!;
  expect(confirmed.traceId).toBe(planTrace);
  // The demo agency's endpoint answers 204.
  expect(confirmed.attributes["http.response.status_code"]).toBe(204);
  await expect
    .poll(() => receiver.spans().filter((span) => span.parentSpanId === confirmed.spanId && span.traceId === planTrace).length, {
      timeout: 15_000,
    })
    .toBeGreaterThan(0);

  // One query by the session's id finds every part of it.
  const bySession = new Set(
    receiver
      .spans()
      .filter((span) => span.attributes["checkout.session_id"] === session.id)
      .map((span) => span.name),
  );
  for (const name of [
    "POST /api/checkout-sessions",
    "GET /checkout/[sessionId]",
    "checkout.webhook.process",
    "checkout.notification.deliver",
  ]) {
    expect(bySession.has(name), `${name} by the session's id`).toBe(true);
  }

  // Nothing personal and no secret in anything the collector received.
  const raw = receiver.raw();
  for (const [what, value] of Object.entries(NEVER_EXPORTED)) expect(raw.includes(value), `${what} (${value}) was exported`).toBe(false);
});
