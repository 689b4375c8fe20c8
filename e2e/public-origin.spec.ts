import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "./fixtures";
import { APP_PORT } from "./support/app";
import { startProcess, waitUntilOk, type Instance, SERVER_ARGS } from "./support/instances";
import { aCustomer } from "./support/test-data";

/**
 * A deployment reached by another name than `localhost` (a shared test server, a phone on the
 * office network): the app's APP_URL is that address, and the app still calls the sandbox it serves
 * on `localhost:$PORT` (the default partner API base URL). Every address the browser is given
 * (the provider checkout's, the way back) must be on APP_URL: the browser here cannot reach
 * `localhost` or 127.0.0.1 at all, and every request it makes is recorded.
 */
test.describe.configure({ mode: "serial", timeout: 180_000 });

const PORT = APP_PORT + 8;
/** Another loopback address: on Linux the whole of 127.0.0.0/8 answers. */
const BASE = `http://127.0.0.2:${PORT}`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "travel-checkout-public-origin-"));

test.use({ baseURL: BASE, locale: "es-ES" });

let app: Instance | undefined;

test.beforeAll(async () => {
  app = startProcess("app", SERVER_ARGS, { PORT: String(PORT), DATA_DIR: dataDir, APP_URL: BASE, DATABASE_URL: "" }, PORT);
  await waitUntilOk(`${BASE}/api/health`, { instance: app });
});

test.afterAll(async () => {
  await app?.stop("SIGTERM");
  rmSync(dataDir, { recursive: true, force: true });
});

test("the whole checkout, reached by 127.0.0.2, never sends the browser to localhost", async ({ page, checkout }) => {
  const requested: string[] = [];
  page.on("request", (request) => requested.push(request.url()));
  // What a phone or a CI browser would meet at its own localhost: nothing.
  await page.context().route(/^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])[:/]/, (route) => route.abort("addressunreachable"));

  const sessionId = await checkout.startWithDetails(aCustomer());
  await checkout.chooseAndReachProvider(12, "Financiera Olivo");
  expect(new URL(page.url()).origin).toBe(BASE);
  await checkout.provider.sign();

  await checkout.status.expectState("confirmed");
  expect(page.url()).toBe(`${BASE}/checkout/${sessionId}/status`);
  await checkout.status.backToPartner.click();
  await expect(page).toHaveURL((url) => url.origin === BASE && url.pathname === "/");

  expect(requested.length).toBeGreaterThan(5);
  expect(requested.filter((url) => new URL(url).origin !== BASE && !url.startsWith("data:"))).toEqual([]);
});
