import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "./fixtures";
import type { CheckoutPages } from "./pages/checkout-pages";
import { APP_PORT, STAFF } from "./support/app";
import type { CheckoutSessionsApi } from "./support/checkout-sessions";
import { startProcess, waitUntilOk, type Instance, SERVER_ARGS } from "./support/instances";
import type { Sandbox } from "./support/sandbox";
import { aBookingReference } from "./support/test-data";

/**
 * `npm start` stopped and started again on the same data: the app and the sandbox it
 * serves keep everything, so a checkout cut by a restart completes, its outcome arrives by webhook
 * alone and is acknowledged within seconds (the reconciler only looks at sessions left open for 3
 * minutes, and the history says which path applied it), and the back-office still lists what came
 * before. A forged delivery posted first under the event id the sandbox is about to use does not
 * keep the genuine event out. Runs the production build the web server made as a process of its
 * own, on its own data directory and port.
 */
test.describe.configure({ mode: "serial", timeout: 180_000 });

const PORT = APP_PORT + 5;
/** The app's own URL (APP_URL's default): the pages, the return and the webhook URLs are there. */
const BASE = `http://localhost:${PORT}`;
/** Set, so that the test can post to the webhook URL as anyone holding it could. */
const WEBHOOK_TOKEN = "restart_spec_webhook_token_0123456789";
const dataDir = mkdtempSync(path.join(os.tmpdir(), "travel-checkout-restart-"));

// The fixtures' pages, API clients and sandbox reach this process (relative URLs).
test.use({ baseURL: BASE });

let app: Instance | undefined;

async function startApp(): Promise<void> {
  app = startProcess("app", SERVER_ARGS, { PORT: String(PORT), DATA_DIR: dataDir, WEBHOOK_TOKEN }, PORT);
  await waitUntilOk(`http://127.0.0.1:${PORT}/api/health`, { instance: app });
}

/** SIGTERM, as `npm start` is stopped; it must be gone before the same data is opened again. */
async function restartApp(): Promise<void> {
  await app?.stop("SIGTERM");
  await startApp();
}

test.beforeAll(async () => {
  await startApp();
});

test.afterAll(async () => {
  await app?.stop("SIGTERM");
  rmSync(dataDir, { recursive: true, force: true });
});

/** Booking references of the sessions opened here, in order: the back-office must still list them. */
const references: string[] = [];

/** A session of the demo partner whose customer has chosen a plan and is at the provider's checkout. */
async function atProvider(checkoutSessions: CheckoutSessionsApi, checkout: CheckoutPages) {
  const reference = aBookingReference("RESTART");
  references.push(reference);
  const ids = await checkout.atProvider(checkoutSessions, reference, BASE);
  expect((await checkoutSessions.read(ids.sessionId)).state).toBe("pending");
  return { ...ids, reference };
}

/** The provider approves (control API); the session must become confirmed by the webhook, acknowledged within seconds. */
async function approveAndExpectWebhook(sandbox: Sandbox, checkoutSessions: CheckoutSessionsApi, sessionId: string, operationId: string) {
  expect((await sandbox.decide(operationId, "approve")).status()).toBe(200);
  await expect.poll(async () => (await checkoutSessions.read(sessionId)).state, { timeout: 15_000 }).toBe("confirmed");
  await expect
    .poll(async () => (await sandbox.webhooks(operationId)).map((e) => ({ acknowledged: e.acknowledged, attempts: e.attempts })), {
      timeout: 15_000,
    })
    // Acknowledged at its first delivery: no redelivery (the first would come a minute later) was needed.
    .toEqual([{ acknowledged: true, attempts: 1 }]);
}

let first: Awaited<ReturnType<typeof atProvider>>;

test("restarted in the middle of a checkout: the outcome arrives by webhook and is acknowledged within seconds", async ({
  checkoutSessions,
  checkout,
  sandbox,
}) => {
  first = await atProvider(checkoutSessions, checkout);
  await restartApp();
  // The session and its operation are still there, on both sides.
  expect(await checkoutSessions.read(first.sessionId)).toMatchObject({ state: "pending", operation: { id: first.operationId } });
  expect(await sandbox.status(first.operationId)).toBe("CLIENT_REQUESTED");

  await approveAndExpectWebhook(sandbox, checkoutSessions, first.sessionId, first.operationId);
});

test("a forged delivery under the event id the sandbox uses next does not keep the genuine event out", async ({
  checkoutSessions,
  checkout,
  sandbox,
  request,
}) => {
  const second = await atProvider(checkoutSessions, checkout);
  const [last] = await sandbox.webhooks(first.operationId);
  // The sandbox's next event ids (a few, should the sequence skip one): each one posted first,
  // with a made-up operation, and with the real operation claiming a status, right or wrong.
  const next = [1, 2, 3].map((n) => last!.eventId + n);
  for (const eventId of next) {
    for (const body of [
      { operationIdentifier: "op_forged_000000", operationStatus: "CONFIRMED", eventId },
      { operationIdentifier: second.operationId, operationStatus: "REFUSED", eventId },
      { operationIdentifier: second.operationId, operationStatus: "CONFIRMED", eventId },
    ]) {
      const answer = await request.post(`/api/webhooks/financing/${WEBHOOK_TOKEN}`, { data: body });
      expect(answer.status()).toBe(200);
    }
  }
  // The forged deliveries under the real operation were processed: the status they applied is the
  // one read from the API (CLIENT_REQUESTED, which nothing else here records), not the one they claimed.
  await expect
    .poll(async () => (await checkoutSessions.read(second.sessionId)).operation?.status, { timeout: 15_000 })
    .toBe("CLIENT_REQUESTED");
  expect((await checkoutSessions.read(second.sessionId)).state).toBe("pending");

  await approveAndExpectWebhook(sandbox, checkoutSessions, second.sessionId, second.operationId);
  const [genuine] = await sandbox.webhooks(second.operationId);
  expect(next).toContain(genuine!.eventId);
});

test("restarted after the outcomes: the back-office still lists the earlier operations, applied by webhook", async ({ admin }) => {
  await restartApp();
  await admin.signIn(STAFF.aurora);
  await admin.operations.goto();
  for (const reference of references) await expect(admin.operations.row(reference)).toBeVisible();

  for (const reference of references) {
    await admin.openByReference(reference);
    await admin.operation.expectStatus("CONFIRMED");
    // Applied by the webhook, not by the reconciler (nor a customer's return: none came back).
    const confirmed = admin.operation.history.getByRole("row").filter({ hasText: "CONFIRMED" });
    await expect(confirmed).toHaveCount(1);
    await expect(confirmed).toContainText(admin.m.operation.sources.webhook!);
  }
});
