import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import type { CheckoutPages } from "./pages/checkout-pages";
import { APP_PORT, DEMO_PARTNERS } from "./support/app";
import { CheckoutSessionsApi } from "./support/checkout-sessions";
import { startProcess, waitUntilOk, type Instance, SERVER_ARGS } from "./support/instances";
import { Sandbox, SANDBOX_AGENCY_KEY } from "./support/sandbox";
import { aBookingReference } from "./support/test-data";

/**
 * SIGTERM in the middle of processing a webhook: the app is the production build run as
 * a process of its own (PGlite, its own data), with the partner API's sandbox as another process, so
 * the sandbox outlives the app and says what was acknowledged. The sandbox holds the status call the
 * processing makes (a latency fault), and the app gets SIGTERM while it waits: with enough grace the
 * event is finished and acknowledged before the process exits 0; with too little it is handed back,
 * and the restarted app applies it at once (not after its lock's 30 s, nor the API's redelivery a
 * minute later), once.
 */
test.describe.configure({ mode: "serial", timeout: 180_000 });

const PORTS = { sandbox: APP_PORT + 71, app: APP_PORT + 72 };
const SANDBOX_ORIGIN = `http://127.0.0.1:${PORTS.sandbox}`;
const BASE = `http://127.0.0.1:${PORTS.app}`;
const WEBHOOK_TOKEN = "shutdown_spec_webhook_token_0123456789";
const METRICS_TOKEN = "shutdown_spec_metrics_token_0123456789";
const dataDir = mkdtempSync(path.join(os.tmpdir(), "travel-checkout-shutdown-"));

let sandboxProcess: Instance | undefined;
let app: Instance | undefined;

async function startApp(graceMs: number, drainDelayMs = 0): Promise<Instance> {
  const instance = startProcess(
    "app",
    SERVER_ARGS,
    {
      PORT: String(PORTS.app),
      DATA_DIR: dataDir,
      SANDBOX_ENABLED: "false",
      FINANCING_API_BASE_URL: `${SANDBOX_ORIGIN}/sandbox/v1`,
      FINANCING_API_KEY: SANDBOX_AGENCY_KEY,
      APP_URL: BASE,
      WEBHOOK_TOKEN,
      SHUTDOWN_GRACE_MS: String(graceMs),
      SHUTDOWN_DRAIN_DELAY_MS: String(drainDelayMs),
      METRICS_TOKEN,
    },
    PORTS.app,
  );
  await waitUntilOk(`${BASE}/api/health`, { timeoutMs: 180_000, instance });
  return instance;
}

test.beforeAll(async () => {
  test.setTimeout(150_000);
  sandboxProcess = startProcess(
    "sandbox",
    ["--import", "tsx", "--import", "./scripts/server-only-stub.mjs", "scripts/sandbox.ts", "--port", String(PORTS.sandbox)],
    { DATA_DIR: dataDir },
    PORTS.sandbox,
  );
  await waitUntilOk(`${SANDBOX_ORIGIN}/sandbox/v1/health`, {
    timeoutMs: 180_000,
    headers: { "X-Service-API-Key": SANDBOX_AGENCY_KEY },
    instance: sandboxProcess,
  });
});

test.afterAll(async () => {
  await app?.stop("SIGKILL");
  await sandboxProcess?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A customer at the provider's page: the session is pending, its operation CLIENT_REQUESTED. */
async function atProvider(request: APIRequestContext, checkout: CheckoutPages) {
  const api = new CheckoutSessionsApi(request, DEMO_PARTNERS.demo, BASE);
  return { api, ...(await checkout.atProvider(api, aBookingReference("SIGTERM"), BASE)) };
}

/** Approves the operation with its status call held `latencyMs`; resolves once the webhook was delivered. */
async function approveWithSlowStatus(sandbox: Sandbox, operationId: string, latencyMs: number) {
  expect((await sandbox.injectFault({ route: "GET /operations/*/status", fault: "latency", latencyMs, count: 1 })).status()).toBe(200);
  expect((await sandbox.decide(operationId, "approve")).status()).toBe(200);
  await expect.poll(async () => (await sandbox.webhooks(operationId))[0]?.attempts ?? 0, { timeout: 15_000 }).toBe(1);
}

/** SIGTERM; resolves with the exit code and how long the process took to exit. */
async function terminate(instance: Instance): Promise<{ code: number | null; ms: number }> {
  const started = Date.now();
  await instance.stop("SIGTERM");
  return { code: instance.child.exitCode, ms: Date.now() - started };
}

test("SIGTERM while an event is processed: it is finished and acknowledged, then the process exits 0", async ({ request, checkout }) => {
  app = await startApp(15_000);
  const sandbox = new Sandbox(request, SANDBOX_ORIGIN);
  const { api, sessionId, operationId } = await atProvider(request, checkout);
  await approveWithSlowStatus(sandbox, operationId, 4_000);
  const [delivered] = await sandbox.webhooks(operationId);
  expect(delivered).toMatchObject({ acknowledged: false, attempts: 1 });

  // Ready, and counted, before the signal.
  expect((await request.get(`${BASE}/api/ready`)).status()).toBe(200);
  expect((await request.get(`${BASE}/api/metrics`)).status()).toBe(401);
  const scraped = await request.get(`${BASE}/api/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(scraped.status()).toBe(200);
  const metrics = await scraped.text();
  expect(metrics).toContain('partner_api_requests_total{endpoint="POST /operations",outcome="201"}');
  expect(metrics).toMatch(/http_requests_total\{method="GET",route="\/checkout\/\[sessionId\]",status="200"\} \d+/);
  expect(metrics).toContain('webhook_events_received_total{outcome="stored"} 1');
  // The sandbox's delivery, in its own process, reads the status and drops the connection: still
  // counted in the request metrics, once.
  expect(metrics).toContain('http_requests_total{method="POST",route="/api/webhooks/financing/[token]",status="200"} 1');
  expect(metrics).not.toContain(sessionId);

  const stopping = terminate(app);
  // While it finishes the event, it tells the load balancer it is going.
  await expect
    .poll(async () => {
      const ready = await request.get(`${BASE}/api/ready`).catch(() => undefined);
      return ready ? ((await ready.json()) as { checks: { instance: string } }).checks.instance : "gone";
    })
    .toBe("draining");
  const stopped = await stopping;
  expect(stopped.code).toBe(0);
  expect(app.output.join("")).toContain("shutdown: complete");
  // Acknowledged by the stopping process itself, at the first delivery.
  expect(await sandbox.webhooks(operationId)).toMatchObject([{ acknowledged: true, attempts: 1 }]);

  app = await startApp(15_000);
  expect((await api.read(sessionId)).state).toBe("confirmed");
  await terminate(app);
});

test("SIGTERM with too little grace: the event is handed back, and the restarted app applies it at once", async ({ request, checkout }) => {
  app = await startApp(500);
  const sandbox = new Sandbox(request, SANDBOX_ORIGIN);
  const { api, sessionId, operationId } = await atProvider(request, checkout);
  await approveWithSlowStatus(sandbox, operationId, 10_000);

  const stopped = await terminate(app);
  expect(stopped.code).toBe(0);
  // It did not wait for the 10 s status call.
  expect(stopped.ms).toBeLessThan(9_000);
  expect(app.output.join("")).toMatch(/"releasedEvents":1/);
  expect(await sandbox.webhooks(operationId)).toMatchObject([{ acknowledged: false, attempts: 1 }]);

  // Restarted: the worker's first rounds take the handed-back event (the API's own redelivery
  // would come a minute later, and the lock would have held it 30 s).
  app = await startApp(500);
  await expect.poll(async () => (await sandbox.webhooks(operationId))[0]?.acknowledged, { timeout: 20_000 }).toBe(true);
  expect(await sandbox.webhooks(operationId)).toMatchObject([{ acknowledged: true, attempts: 1 }]);
  const read = await api.read(sessionId);
  expect(read.state).toBe("confirmed");
  await terminate(app);
});

test("SIGTERM with nothing under way: it goes on serving, readiness 503 draining, through the drain delay, then exits 0", async ({
  request,
}) => {
  app = await startApp(15_000, 4_000);
  expect((await request.get(`${BASE}/api/ready`)).status()).toBe(200);

  const stopping = terminate(app);
  // A load balancer probing readiness sees the instance going (it used to meet a closed port at
  // once), and what it still routes here in the meantime is served.
  await expect
    .poll(async () => {
      const ready = await request.get(`${BASE}/api/ready`).catch(() => undefined);
      return ready ? `${ready.status()} ${((await ready.json()) as { checks: { instance: string } }).checks.instance}` : "refused";
    })
    .toBe("503 draining");
  expect((await request.get(`${BASE}/`)).status()).toBe(200);
  expect((await request.get(`${BASE}/api/health`)).status()).toBe(200);
  expect(app.child.exitCode).toBeNull();

  const stopped = await stopping;
  expect(stopped.code).toBe(0);
  expect(stopped.ms).toBeGreaterThanOrEqual(4_000);
  expect(app.output.join("")).toContain("shutdown: drain delay over");
});
