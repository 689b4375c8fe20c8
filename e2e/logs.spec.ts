import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { expect, test } from "./fixtures";
import { CheckoutPages } from "./pages/checkout-pages";
import { AdminSignInPage } from "./pages/admin/sign-in-page";
import { APP_PORT, DEMO_PARTNERS, STAFF } from "./support/app";
import { checkoutSessionBody, CheckoutSessionsApi } from "./support/checkout-sessions";
import { startProcess, waitForAppAndSandbox, type Instance, SERVER_ARGS } from "./support/instances";
import { SANDBOX_AGENCY_KEY } from "./support/sandbox";
import { aCustomer, dniOf, type CustomerDetails } from "./support/test-data";
import { customerSearchHash } from "@/lib/checkout/session/customer-hashes";
import { sandboxKeyring } from "@/lib/config/keyring";
import { ADMIN_MESSAGES } from "@/lib/i18n/admin-messages";

/*
 * What the server logs (docs/operators/monitoring.md), read the way an operator reads it: the built app runs as
 * a process of its own with its output captured, a customer goes through a whole checkout, and then
 * the things that go wrong on a bad day happen (the database refusing a customer's data, bad JSON,
 * invalid forms, a wrong webhook token, a wrong partner secret, a failed staff sign-in). The log must
 * hold none of the customer's data and none of the secrets, be JSON lines, and carry the request id.
 *
 * The database refusal is real: before the server starts, its database gets a CHECK constraint that
 * refuses one customer (by the keyed hash of their e-mail, `+dbfail`), and PostgreSQL's error for it
 * holds the whole row ("Failing row contains (…)"), as drizzle's holds the query's parameters.
 */

const PORT = APP_PORT + 61;
const ORIGIN = `http://localhost:${PORT}`;
const WEBHOOK_TOKEN = "e2eLogsWebhookToken_0123456789abcdef";
const STAFF_ACCOUNT = STAFF.aurora;
const WRONG_PASSWORD = "not-the-password-Qx7";
const WRONG_SECRET = "wrong_partner_secret_Zq81";
const WRONG_TOKEN = "wrongWebhookToken_0123456789ZYXWVU";
const INCOMING_REQUEST_ID = "e2e-logs-3f9a1c2b7d";

/** A customer whose every value is unusual enough to be found in a log if it ever got there. */
const CUSTOMER: CustomerDetails = aCustomer({
  firstName: "Eulalia",
  lastName: "Quintanilla Berrocal",
  email: "eulalia.quintanilla@example.net",
  phone: "699871243",
  documentId: dniOf(48273915),
  birthDate: "1983-11-27",
  address: "Calle Zurbarán 17, 2º D",
  postalCode: "28010",
});
const REFUSED_CUSTOMER: CustomerDetails = { ...CUSTOMER, email: "eulalia.quintanilla+dbfail@example.net", phone: "699871244" };

/** What must never be in the log. */
const NEVER_LOGGED: Record<string, string> = {
  "the customer's e-mail": CUSTOMER.email,
  "the e-mail local part": "eulalia.quintanilla",
  "the customer's phone": CUSTOMER.phone,
  "the refused customer's phone": REFUSED_CUSTOMER.phone,
  "the customer's document number": CUSTOMER.documentId,
  "the document's digits": CUSTOMER.documentId.slice(0, 8),
  "the customer's birth date": CUSTOMER.birthDate,
  "the customer's surname": "Quintanilla",
  "the customer's address": "Zurbarán",
  "the partner API key": SANDBOX_AGENCY_KEY,
  "the webhook token": WEBHOOK_TOKEN,
  "a wrong webhook token": WRONG_TOKEN,
  "the partner secret": DEMO_PARTNERS.demo.secret,
  "a wrong partner secret": WRONG_SECRET,
  "the staff e-mail": STAFF_ACCOUNT.email,
  "the staff password": STAFF_ACCOUNT.password,
  "a wrong staff password": WRONG_PASSWORD,
};

test.describe.configure({ mode: "serial", timeout: 240_000 });
test.use({ baseURL: ORIGIN, locale: "es-ES" });

let server: Instance;
let dataDir: string;

test.beforeAll(async () => {
  // Opening PGlite and starting a server take a while on a shared machine.
  test.setTimeout(150_000);
  dataDir = mkdtempSync(path.join(os.tmpdir(), "travel-checkout-logs-"));
  // The app's schema, then the constraint; the server finds its migrations applied and keeps it.
  const client = await PGlite.create(path.join(dataDir, "pglite"));
  await migrate(drizzle(client), { migrationsFolder: path.join(process.cwd(), "lib", "db", "migrations") });
  // The data is sealed: the row is told by its e-mail's keyed hash, under the sandbox's key ring (the server's default).
  const refused = customerSearchHash(sandboxKeyring()[0], "email", REFUSED_CUSTOMER.email);
  await client.exec(`alter table customer_data add constraint e2e_logs_refuse check (email_hash is distinct from '${refused}')`);
  await client.close();

  server = startProcess(
    "logs",
    SERVER_ARGS,
    { PORT: String(PORT), APP_URL: ORIGIN, DATA_DIR: dataDir, WEBHOOK_TOKEN, LOG_LEVEL: "debug" },
    PORT,
  );
  await waitForAppAndSandbox(ORIGIN, server, SANDBOX_AGENCY_KEY);
});

// The captured log, kept with the test's results for whoever reads a failure.
test.afterEach(async ({}, testInfo) => {
  if (server) await testInfo.attach("server-log.jsonl", { body: log(), contentType: "text/plain" });
});

test.afterAll(async () => {
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function log(): string {
  return server.output.join("");
}

type Line = Record<string, unknown> & { level: string; msg: string; time: string };

function lines(): Line[] {
  return log()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Line);
}

function linesWith(msg: string): Line[] {
  return lines().filter((line) => line.msg === msg);
}

test("a full checkout, then a bad day: the log holds no personal data and no secret, as JSON lines with request ids", async ({
  page,
  request,
}) => {
  const checkout = new CheckoutPages(page, "es");
  const sessions = new CheckoutSessionsApi(request, DEMO_PARTNERS.demo, ORIGIN);

  // --- A whole checkout: the partner opens a session with the customer's data, the customer goes through.
  const opened = await sessions.postSession({ customer: CUSTOMER, returnUrl: `${ORIGIN}/` }, { "X-Request-Id": INCOMING_REQUEST_ID });
  expect(opened.status(), await opened.text()).toBe(201);
  expect(opened.headers()["x-request-id"]).toBe(INCOMING_REQUEST_ID);
  const session = (await opened.json()) as { id: string; url: string };

  await checkout.completePrefilled(session.url, CUSTOMER);
  // The webhook of the outcome, received and processed (after the answer, or by the worker).
  await expect.poll(() => linesWith("webhooks: event processed").length, { timeout: 60_000 }).toBeGreaterThan(0);

  // --- The database refuses the customer's data: at the API (prefill) and at the form.
  const refusedAtApi = await sessions.post(checkoutSessionBody({ customer: REFUSED_CUSTOMER, returnUrl: `${ORIGIN}/` }));
  expect(refusedAtApi.status()).toBe(500);
  expect(await refusedAtApi.text()).not.toContain("dbfail");

  const other = await sessions.open({ customer: { firstName: CUSTOMER.firstName, lastName: CUSTOMER.lastName }, returnUrl: `${ORIGIN}/` });
  await page.goto(other.url);
  const { firstName: _first, lastName: _last, ...rest } = REFUSED_CUSTOMER;
  await checkout.details.fill(rest);
  await checkout.details.submit();
  await expect.poll(() => linesWith("a server action failed").length, { timeout: 15_000 }).toBeGreaterThan(0);

  // --- Bad input of every kind.
  const api = `${ORIGIN}/api/checkout-sessions`;
  const badJson = await request.post(api, {
    headers: { ...sessions.authorization, "Content-Type": "application/json" },
    data: `{"customer": {"email": "${CUSTOMER.email}"`,
  });
  expect(badJson.status()).toBe(400);
  const body = checkoutSessionBody({ customer: CUSTOMER });
  const invalid = await sessions.post({ ...body, booking: { ...body.booking, totalPrice: "a lot" } });
  expect(invalid.status()).toBe(400);
  const wrongSecret = await sessions.post({}, { Authorization: `Bearer ${WRONG_SECRET}` });
  expect(wrongSecret.status()).toBe(401);
  const event = { eventId: 991_001, operationIdentifier: "op_unknown_e2e_logs", operationStatus: "CONFIRMED" };
  const wrongToken = await request.post(`${ORIGIN}/api/webhooks/financing/${WRONG_TOKEN}`, { data: event });
  expect(wrongToken.status()).toBe(404);
  const webhookBadJson = await request.post(`${ORIGIN}/api/webhooks/financing/${WEBHOOK_TOKEN}`, {
    headers: { "Content-Type": "application/json" },
    data: "{nope",
  });
  expect(webhookBadJson.status()).toBe(400);
  const unknownOperation = await request.post(`${ORIGIN}/api/webhooks/financing/${WEBHOOK_TOKEN}`, { data: event });
  expect(unknownOperation.status()).toBe(200);
  // The operation id is any text the body brings: one carrying personal data is rejected, and not logged.
  const personal = { eventId: 991_002, operationIdentifier: `${CUSTOMER.lastName} ${CUSTOMER.email}`, operationStatus: "CONFIRMED" };
  expect((await request.post(`${ORIGIN}/api/webhooks/financing/${WEBHOOK_TOKEN}`, { data: personal })).status()).toBe(200);
  await expect
    .poll(() => linesWith("webhooks: event processed").filter((line) => line.eventId === 991_002 && line.result === "rejected").length, {
      timeout: 30_000,
    })
    .toBe(1);

  const signIn = new AdminSignInPage(page, ADMIN_MESSAGES.es);
  await signIn.goto();
  await signIn.signIn({ email: STAFF_ACCOUNT.email, password: WRONG_PASSWORD });
  await expect(signIn.error).toBeVisible();
  await signIn.signIn(STAFF_ACCOUNT);
  await expect(page).not.toHaveURL(/\/admin\/login/);
  await expect.poll(() => linesWith("backoffice: signed in").length).toBeGreaterThan(0);

  // --- A partner API error, logged by the built app (several bundles, each with its copy of the
  // error class) by its safe shape: what an operator needs to find it at the provider.
  await page.goto(`${ORIGIN}/admin/operations/op_e2e_logs_missing`);
  await expect.poll(() => linesWith("backoffice: reading an operation's status failed").length, { timeout: 15_000 }).toBeGreaterThan(0);
  expect(linesWith("backoffice: reading an operation's status failed")[0]!.err).toMatchObject({
    type: "FinancingApiError",
    api: { endpoint: "GET /operations/{id}/status", status: 404, errorCode: "OPERATION_NOT_FOUND" },
  });

  // --- What the log holds.
  const text = log();
  for (const [what, value] of Object.entries(NEVER_LOGGED)) {
    expect(text.includes(value), `${what} (${value}) is in the log`).toBe(false);
  }

  // JSON lines: everything but Next's start-up banner.
  const ansi = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");
  const notJson = text
    .split("\n")
    .map((line) => line.replace(ansi, ""))
    .filter((line) => line.trim() !== "" && !line.startsWith("{"))
    .filter(
      (line) => !/^\s*(▲ Next\.js|- (Local|Network|Environments|Experiments):|✓ (Starting|Ready|Running next\.config)|· )/.test(line),
    );
  expect(notJson).toEqual([]);
  const all = lines();
  for (const line of all) {
    expect(typeof line.time).toBe("string");
    expect(["trace", "debug", "info", "warn", "error", "fatal"]).toContain(line.level);
  }

  // The request id: the incoming one kept, and one on every line logged for a request.
  expect(linesWith("checkout session opened")[0]).toMatchObject({ requestId: INCOMING_REQUEST_ID, sessionId: session.id });
  const requestLines = [
    "checkout session opened",
    "request refused",
    "a server action failed",
    "webhooks: a delivery with a wrong token was refused",
    "webhooks: a delivery was refused",
    "webhooks: event received",
    "backoffice: a sign-in failed",
    "backoffice: signed in",
  ];
  for (const msg of requestLines) {
    const found = linesWith(msg);
    expect(found.length, `no "${msg}" line`).toBeGreaterThan(0);
    for (const line of found) expect(line.requestId, `"${msg}" without a request id`).toMatch(/^[\w.:-]{8,128}$/);
  }
  // The webhook's processing (the background worker's, woken by the delivery) logs with the event's id.
  const received = new Set(linesWith("webhooks: event received").map((line) => String(line.eventId)));
  expect(linesWith("partner API answered").some((line) => received.has(String(line.eventId)))).toBe(true);

  // The refusals by the database are logged by their SQLSTATE and table, and nothing else of them.
  const refusals = all.filter((line) => JSON.stringify(line.err ?? {}).includes('"code":"23514"'));
  expect(refusals.length).toBeGreaterThanOrEqual(2);
  expect(JSON.stringify(refusals)).toContain('"table":"customer_data"');
});
