import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import postgres from "postgres";
import { startLoadBalancer, startProcess, waitUntilOk, type Instance } from "./support/instances";

/**
 * Several instances on one PostgreSQL (TEST_DATABASE_URL): two app instances behind a round-robin
 * load balancer, with the partner API sandbox running on its own. Needs the production build the
 * web server made. Skipped when no PostgreSQL is given (CI gives one).
 */
const DATABASE = process.env.TEST_DATABASE_URL;
test.skip(!DATABASE, "needs TEST_DATABASE_URL (a PostgreSQL server)");
test.describe.configure({ mode: "serial", timeout: 180_000 });

const KEY = { "X-Service-API-Key": "fk_test_sandbox_agency_101" };
const PORTS = { sandbox: 3281, a: 3282, b: 3283 };

let sql: postgres.Sql;
let admin: postgres.Sql;
let dbName: string;
let databaseUrl: string;
let sandbox: Instance;
let instances: Instance[];
let balancer: Awaited<ReturnType<typeof startLoadBalancer>>;
let base: string;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "instances-"));

function appInstance(name: string, port: number, databaseUrl: string): Instance {
  return startProcess(name, ["node_modules/next/dist/bin/next", "start"], {
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    SANDBOX_ENABLED: "false",
    FINANCING_API_BASE_URL: `http://127.0.0.1:${PORTS.sandbox}/sandbox/v1`,
    FINANCING_API_KEY: KEY["X-Service-API-Key"],
    // What the load balancer serves: return and webhook URLs point at it, not at one instance.
    APP_URL: base,
    // One key for every instance, so a server action rendered by one is accepted by another.
    NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: "bXVsdGktaW5zdGFuY2UtdGVzdC1rZXktMzItYnl0ZXM=",
  }, port);
}

test.beforeAll(async () => {
  admin = postgres(DATABASE!, { max: 1, onnotice: () => {} });
  dbName = `e2e_instances_${Date.now()}`;
  await admin.unsafe(`create database ${dbName}`);
  const url = new URL(DATABASE!);
  url.pathname = `/${dbName}`;
  databaseUrl = url.toString();
  sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });

  sandbox = startProcess("sandbox", ["--conditions=react-server", "--import", "tsx", "scripts/sandbox.ts", "--port", String(PORTS.sandbox)], {}, PORTS.sandbox);
  instances = [];
  balancer = await startLoadBalancer(() => instances.filter((i) => i.child.exitCode === null && i.child.signalCode === null));
  base = `http://127.0.0.1:${balancer.port}`;
  instances = [appInstance("A", PORTS.a, databaseUrl), appInstance("B", PORTS.b, databaseUrl)];
  await waitUntilOk(`http://127.0.0.1:${PORTS.sandbox}/sandbox/v1/health`, 60_000, KEY);
  for (const instance of instances) await waitUntilOk(`http://127.0.0.1:${instance.port}/api/health`);
});

test.afterAll(async () => {
  await Promise.all((instances ?? []).map((i) => i.stop()));
  await sandbox?.stop();
  await balancer?.close();
  await sql?.end();
  if (admin && dbName) await admin.unsafe(`drop database if exists ${dbName} with (force)`);
  await admin?.end();
  rmSync(dataDir, { recursive: true, force: true });
});

async function openSession(reference: string): Promise<string> {
  const created = await fetch(`${base}/api/checkout-sessions`, {
    method: "POST",
    headers: { Authorization: "Bearer demo_partner_secret_sandbox_only", "Content-Type": "application/json" },
    body: JSON.stringify({
      booking: {
        bookingReference: reference,
        packageName: "Lisboa, 4 noches",
        travellers: 2,
        totalPrice: { amount: 1234.5, currency: "EUR" },
        flights: [{ origin: "MAD", destination: "LIS", departureDate: "2027-05-01" }],
      },
      returnUrl: `${base}/`,
      locale: "en",
    }),
  });
  expect(created.status).toBe(201);
  return (await created.json()).id;
}

/** The customer's steps, in a browser, through the load balancer. */
async function customerReachesProvider(page: Page, sessionId: string) {
  await page.goto(`${base}/checkout/${sessionId}`);
  await page.getByLabel("First name").fill("Ana");
  await page.getByLabel("Last name").fill("García");
  await page.getByLabel("E-mail").fill("ana@example.com");
  await page.getByLabel("Country code").fill("+34");
  await page.getByLabel("Mobile phone").fill("612345678");
  await page.getByLabel("Document type").selectOption("DNI");
  await page.getByLabel("Document number").fill("12345678Z");
  await page.getByLabel("Document expiry date").fill("2031-01-31");
  await page.getByRole("radio", { name: "Female" }).check();
  await page.getByLabel("Date of birth").fill("1990-07-04");
  await page.getByLabel("Nationality").selectOption("ESP");
  await page.getByLabel("Address (street, number, floor)").fill("Calle Mayor 1");
  await page.getByLabel("Town or city").fill("Madrid");
  await page.getByLabel("Postcode").fill("28013");
  await page.getByLabel("Country", { exact: true }).selectOption("ESP");
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("button", { name: /Choose this plan/ }).first().click();
  await expect(page.getByRole("button", { name: "Sign and accept" })).toBeVisible();
}

async function operationOf(sessionId: string): Promise<string> {
  const [row] = await sql`select operation_id from checkout_sessions where id = ${sessionId}`;
  return row!.operation_id as string;
}

test("a session opened through one instance completes through the other, behind the load balancer", async ({ page }) => {
  const sessionId = await openSession(`LB-${Date.now()}`);
  await customerReachesProvider(page, sessionId);
  await page.getByRole("button", { name: "Sign and accept" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Financing confirmed" })).toBeVisible();
  // Both instances served parts of it, server actions included.
  const served = balancer.servedBy.filter((line) => line.includes(sessionId));
  expect(new Set(served.map((line) => line.split(" ")[0]))).toEqual(new Set(["A", "B"]));
  expect(served.some((line) => line.includes(" POST "))).toBe(true);
});

test("duplicate deliveries spread over both instances give one transition", async ({ page }) => {
  const sessionId = await openSession(`DUP-${Date.now()}`);
  await customerReachesProvider(page, sessionId);
  const operationId = await operationOf(sessionId);
  const decision = await fetch(`http://127.0.0.1:${PORTS.sandbox}/sandbox/_control/operations/${operationId}/decision`, {
    method: "POST",
    headers: { ...KEY, "Content-Type": "application/json" },
    body: JSON.stringify({ decision: "approve" }),
  });
  expect(decision.status).toBe(200);
  const events = await (await fetch(`http://127.0.0.1:${PORTS.sandbox}/sandbox/_control/operations/${operationId}/webhooks`, { headers: KEY })).json();
  const body = JSON.stringify({ operationIdentifier: operationId, operationStatus: "CONFIRMED", eventId: events[0].eventId });
  // The webhook URL the API was given (through the balancer) names the token.
  const url = new URL(String(events[0].url));
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      fetch(`http://127.0.0.1:${i % 2 === 0 ? PORTS.a : PORTS.b}${url.pathname}`, { method: "POST", headers: { "Content-Type": "application/json" }, body }),
    ),
  );
  expect(answers.every((a) => a.status === 200)).toBe(true);
  await expect.poll(async () => (await sql`select processed_at from webhook_events where event_id = ${events[0].eventId}`)[0]?.processed_at, { timeout: 20_000 }).toBeTruthy();
  const transitions = await sql`select status from session_status_history where session_id = ${sessionId} and status = 'CONFIRMED'`;
  expect(transitions).toHaveLength(1);
  const [row] = await sql`select deliveries from webhook_events where event_id = ${events[0].eventId}`;
  expect(row!.deliveries).toBeGreaterThanOrEqual(20);
});

test("the reconciler runs on one instance at a time", async () => {
  // The background worker ticks every 5 seconds on both instances: the lease keeps one holder.
  const holders = new Set<string>();
  for (let i = 0; i < 6; i++) {
    const [lease] = await sql`select holder, expires_at from leases where name = 'reconciler'`;
    if (lease) holders.add(String(lease.holder));
    await new Promise((r) => setTimeout(r, 2_000));
  }
  expect(holders.size).toBe(1);
});

test("an instance killed in the middle of processing loses nothing", async ({ page }) => {
  const sessionId = await openSession(`KILL-${Date.now()}`);
  await customerReachesProvider(page, sessionId);
  const operationId = await operationOf(sessionId);
  // The ack hangs, so processing is still under way when its instance dies.
  const fault = await fetch(`http://127.0.0.1:${PORTS.sandbox}/sandbox/_control/faults`, {
    method: "PUT",
    headers: { ...KEY, "Content-Type": "application/json" },
    body: JSON.stringify({ route: "PUT /operations/webhook-events/ack", fault: "latency", latencyMs: 20_000, count: 1 }),
  });
  expect(fault.status).toBe(200);
  await fetch(`http://127.0.0.1:${PORTS.sandbox}/sandbox/_control/operations/${operationId}/decision`, {
    method: "POST",
    headers: { ...KEY, "Content-Type": "application/json" },
    body: JSON.stringify({ decision: "approve" }),
  });
  // Which instance took the delivery? Kill it while its ack hangs.
  await expect.poll(() => balancer.servedBy.find((l) => l.includes("/api/webhooks/financing/")) !== undefined, { timeout: 10_000 }).toBe(true);
  const [{ event_id: eventId }] = (await sql`select event_id from webhook_events where operation_id = ${operationId}`) as unknown as [{ event_id: number }];
  await expect.poll(async () => (await sql`select locked_until from webhook_events where event_id = ${eventId}`)[0]?.locked_until, { timeout: 10_000 }).toBeTruthy();
  const servedBy = balancer.servedBy.filter((l) => l.includes("/api/webhooks/financing/")).at(-1)!.split(" ")[0];
  const victim = instances.find((i) => i.name === servedBy)!;
  await victim.stop("SIGKILL");
  expect((await sql`select processed_at from webhook_events where event_id = ${eventId}`)[0]?.processed_at).toBeNull();

  // The survivor takes the event over when the dead one's lock lapses, applies it and acknowledges it.
  await expect
    .poll(async () => (await sql`select outcome from webhook_events where event_id = ${eventId}`)[0]?.outcome, { timeout: 90_000, intervals: [2_000] })
    .toBe("applied and acknowledged");
  const [session] = await sql`select operation_status from checkout_sessions where id = ${sessionId}`;
  expect(session!.operation_status).toBe("CONFIRMED");
  const events = await (await fetch(`http://127.0.0.1:${PORTS.sandbox}/sandbox/_control/operations/${operationId}/webhooks`, { headers: KEY })).json();
  expect(events[0].acknowledged).toBe(true);

  // Restarted, the instance serves again.
  const restarted = appInstance(victim.name, victim.port, databaseUrl);
  instances = instances.map((i) => (i === victim ? restarted : i));
  await waitUntilOk(`http://127.0.0.1:${victim.port}/api/health`);
});
