import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import postgres from "postgres";
import { expect, test } from "./fixtures";
import type { CheckoutPages } from "./pages/checkout-pages";
import { DEMO_PARTNERS } from "./support/app";
import { CheckoutSessionsApi } from "./support/checkout-sessions";
import { startLoadBalancer, startProcess, waitUntilOk, type Instance, SERVER_ARGS } from "./support/instances";
import { Sandbox, SANDBOX_AGENCY_KEY } from "./support/sandbox";
import { aCustomer } from "./support/test-data";

/**
 * Several instances on one PostgreSQL (TEST_DATABASE_URL): two app instances behind a round-robin
 * load balancer, with the financing partner API's sandbox running on its own. Needs the production build the
 * web server made. Skipped when no PostgreSQL is given (CI gives one).
 */
const DATABASE = process.env.TEST_DATABASE_URL;
test.skip(!DATABASE, "needs TEST_DATABASE_URL (a PostgreSQL server)");
test.describe.configure({ mode: "serial", timeout: 180_000 });

const PORTS = { sandbox: 3281, a: 3282, b: 3283 };
const SANDBOX_ORIGIN = `http://127.0.0.1:${PORTS.sandbox}`;
/** The same on every instance (as docs/operators/monitoring.md asks); known here to post duplicates as the API would. */
const WEBHOOK_TOKEN = "instances_spec_webhook_token_0123456789";

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
  return startProcess(
    name,
    SERVER_ARGS,
    {
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      SANDBOX_ENABLED: "false",
      FINANCING_API_BASE_URL: `${SANDBOX_ORIGIN}/sandbox/v1`,
      FINANCING_API_KEY: SANDBOX_AGENCY_KEY,
      // What the load balancer serves: return and webhook URLs point at it, not at one instance.
      APP_URL: base,
      WEBHOOK_TOKEN,
      // One key for every instance, so a server action rendered by one is accepted by another.
      NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: "bXVsdGktaW5zdGFuY2UtdGVzdC1rZXktMzItYnl0ZXM=",
    },
    port,
  );
}

test.beforeAll(async () => {
  // Three processes to start (and a database to create) on a possibly busy machine.
  test.setTimeout(120_000);
  admin = postgres(DATABASE!, { max: 1, onnotice: () => {} });
  dbName = `e2e_instances_${Date.now()}`;
  await admin.unsafe(`create database ${dbName}`);
  const url = new URL(DATABASE!);
  url.pathname = `/${dbName}`;
  databaseUrl = url.toString();
  sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });

  sandbox = startProcess(
    "sandbox",
    ["--import", "tsx", "--import", "./scripts/server-only-stub.mjs", "scripts/sandbox.ts", "--port", String(PORTS.sandbox)],
    // Its own data: PGlite under DATA_DIR/sandbox.
    { DATA_DIR: dataDir },
    PORTS.sandbox,
  );
  instances = [];
  balancer = await startLoadBalancer(() => instances.filter((i) => i.child.exitCode === null && i.child.signalCode === null));
  base = `http://127.0.0.1:${balancer.port}`;
  instances = [appInstance("A", PORTS.a, databaseUrl), appInstance("B", PORTS.b, databaseUrl)];
  await waitUntilOk(`${SANDBOX_ORIGIN}/sandbox/v1/health`, { headers: { "X-Service-API-Key": SANDBOX_AGENCY_KEY }, instance: sandbox });
  for (const instance of instances) await waitUntilOk(`http://127.0.0.1:${instance.port}/api/health`, { instance });
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

/** The demo partner's backend opens a session through the load balancer (no customer data prefilled). */
async function openSession(request: APIRequestContext, reference: string): Promise<string> {
  const api = new CheckoutSessionsApi(request, DEMO_PARTNERS.demo, base);
  return (await api.open({ reference, customer: null, returnUrl: `${base}/`, locale: "en" })).id;
}

/** The customer's steps, in a browser, through the load balancer. */
async function customerReachesProvider(checkout: CheckoutPages, sessionId: string) {
  const { page, details, offers, provider } = checkout.in("en");
  await page.goto(`${base}/checkout/${sessionId}`);
  await details.fill(aCustomer());
  await details.submit();
  await offers.chooseButtons.first().click();
  await expect(provider.signButton).toBeVisible();
}

async function operationOf(sessionId: string): Promise<string> {
  const [row] = await sql`select operation_id from checkout_sessions where id = ${sessionId}`;
  return row!.operation_id as string;
}

test("a session opened through one instance completes through the other, behind the load balancer", async ({ request, checkout }) => {
  const sessionId = await openSession(request, `LB-${Date.now()}`);
  await customerReachesProvider(checkout, sessionId);
  await checkout.provider.sign();
  await expect(checkout.page.getByRole("heading", { level: 1, name: "Financing confirmed" })).toBeVisible();
  // Both instances served parts of it, server actions included.
  const served = balancer.servedBy.filter((line) => line.includes(sessionId));
  expect(new Set(served.map((line) => line.split(" ")[0]))).toEqual(new Set(["A", "B"]));
  expect(served.some((line) => line.includes(" POST "))).toBe(true);
});

test("duplicate deliveries spread over both instances give one transition", async ({ request, checkout }) => {
  const sandbox = new Sandbox(request, SANDBOX_ORIGIN);
  const sessionId = await openSession(request, `DUP-${Date.now()}`);
  await customerReachesProvider(checkout, sessionId);
  const operationId = await operationOf(sessionId);
  const decision = await sandbox.decide(operationId, "approve");
  expect(decision.status()).toBe(200);
  const events = await sandbox.webhooks(operationId);
  const body = JSON.stringify({ operationIdentifier: operationId, operationStatus: "CONFIRMED", eventId: events[0]!.eventId });
  // The webhook URL the API was given (the sandbox shows it without its secret path).
  const url = new URL(`${base}/api/webhooks/financing/${WEBHOOK_TOKEN}`);
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      fetch(`http://127.0.0.1:${i % 2 === 0 ? PORTS.a : PORTS.b}${url.pathname}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body,
      }),
    ),
  );
  expect(answers.every((a) => a.status === 200)).toBe(true);
  await expect
    .poll(async () => (await sql`select processed_at from webhook_events where event_id = ${events[0]!.eventId}`)[0]?.processed_at, {
      timeout: 20_000,
    })
    .toBeTruthy();
  const transitions = await sql`select status from session_status_history where session_id = ${sessionId} and status = 'CONFIRMED'`;
  expect(transitions).toHaveLength(1);
  const [row] = await sql`select deliveries from webhook_events where event_id = ${events[0]!.eventId}`;
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

test("an instance killed in the middle of processing loses nothing", async ({ request, checkout }) => {
  const sandbox = new Sandbox(request, SANDBOX_ORIGIN);
  const sessionId = await openSession(request, `KILL-${Date.now()}`);
  await customerReachesProvider(checkout, sessionId);
  const operationId = await operationOf(sessionId);
  // The ack hangs, so processing is still under way when its instance dies.
  const fault = await sandbox.injectFault({ route: "PUT /operations/webhook-events/ack", fault: "latency", latencyMs: 20_000, count: 1 });
  expect(fault.status()).toBe(200);
  await sandbox.decide(operationId, "approve");
  // Which instance took the delivery? Kill it while its ack hangs.
  await expect
    .poll(() => balancer.servedBy.find((l) => l.includes("/api/webhooks/financing/")) !== undefined, { timeout: 10_000 })
    .toBe(true);
  const [{ event_id: eventId }] = (await sql`select event_id from webhook_events where operation_id = ${operationId}`) as unknown as [
    { event_id: number },
  ];
  await expect
    .poll(async () => (await sql`select locked_until from webhook_events where event_id = ${eventId}`)[0]?.locked_until, {
      timeout: 10_000,
    })
    .toBeTruthy();
  const servedBy = balancer.servedBy
    .filter((l) => l.includes("/api/webhooks/financing/"))
    .at(-1)!
    .split(" ")[0];
  const victim = instances.find((i) => i.name === servedBy)!;
  await victim.stop("SIGKILL");
  expect((await sql`select processed_at from webhook_events where event_id = ${eventId}`)[0]?.processed_at).toBeNull();

  // The survivor takes the event over when the dead one's lock lapses, applies it and acknowledges it.
  await expect
    .poll(async () => (await sql`select result from webhook_events where event_id = ${eventId}`)[0]?.result, {
      timeout: 90_000,
      intervals: [2_000],
    })
    .toBe("acknowledged");
  const [session] = await sql`select operation_status from checkout_sessions where id = ${sessionId}`;
  expect(session!.operation_status).toBe("CONFIRMED");
  const events = await sandbox.webhooks(operationId);
  expect(events[0]!.acknowledged).toBe(true);

  // Restarted, the instance serves again.
  const restarted = appInstance(victim.name, victim.port, databaseUrl);
  instances = instances.map((i) => (i === victim ? restarted : i));
  await waitUntilOk(`http://127.0.0.1:${victim.port}/api/health`, { instance: restarted });
});
