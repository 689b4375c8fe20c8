import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { APP_PORT, DEMO_PARTNERS } from "./support/app";
import { MESSAGES } from "@/lib/i18n/messages";
import { checkoutSessionBody } from "./support/checkout-sessions";
import { ShopPage } from "./pages/shop-page";
import { SERVER_ARGS, startProcess, waitUntilOk, type Instance } from "./support/instances";

/**
 * What anonymous clients (and partners' backends) can make this app spend, on an instance of its
 * own with the default budgets, but a narrower demo shop (the suite's shared server widens them: every test there is a
 * client at 127.0.0.1): the readiness probe asks the partner API at most once per few seconds
 * however many probes come; status polls and provider returns are token-bucketed per session (429
 * with Retry-After, JSON for the poll, a page for the return); opening sessions and wrong bearer
 * secrets are throttled (429 `rate_limited` with Retry-After in the API's error format).
 */
test.describe.configure({ mode: "serial", timeout: 180_000 });

const port = APP_PORT + 50;
const origin = `http://localhost:${port}`;
const METRICS_TOKEN = `budgets-${crypto.randomUUID()}`;
const HEALTH_CALLS = 'partner_api_requests_total{endpoint="GET /health"';
const secret = DEMO_PARTNERS.demo.secret;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "travel-checkout-budgets-"));
let app: Instance | undefined;

/** The sum of a metric's series whose text starts with `prefix` (labels included). */
async function metric(prefix: string): Promise<number> {
  const scraped = await fetch(`${origin}/api/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(scraped.status).toBe(200);
  return (await scraped.text())
    .split("\n")
    .filter((line) => line.startsWith(prefix))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(" ") + 1)), 0);
}

function openSession(withSecret = secret): Promise<Response> {
  return fetch(`${origin}/api/checkout-sessions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${withSecret}`, "Content-Type": "application/json" },
    body: JSON.stringify(checkoutSessionBody({ returnUrl: `${origin}/` })),
  });
}

async function expectRateLimited(response: Response, name: string): Promise<void> {
  expect(response.status, name).toBe(429);
  expect(Number(response.headers.get("retry-after")), `${name}: Retry-After`).toBeGreaterThanOrEqual(1);
  expect(((await response.json()) as { error: { code: string } }).error.code, name).toBe("rate_limited");
}

test.beforeAll(async () => {
  // Starting a server (migrations on a fresh database) takes a while on a busy machine.
  test.setTimeout(120_000);
  app = startProcess(
    "budgets",
    SERVER_ARGS,
    {
      PORT: String(port),
      DATA_DIR: dataDir,
      METRICS_TOKEN,
      DATABASE_URL: "",
      FINANCING_API_BASE_URL: "",
      FINANCING_API_KEY: "",
      SECRETS_KEYS: "",
      // Small, so the budget runs out in a few presses however slow each one is (tokens come back
      // continuously: at the default of 10 a minute, a slow machine could keep up with a loop).
      DEMO_SHOP_CHECKOUTS_PER_MINUTE_IP: "3",
    },
    port,
  );
  await waitUntilOk(`http://127.0.0.1:${port}/api/health`, { timeoutMs: 180_000, instance: app });
});

test.afterAll(async () => {
  await app?.stop("SIGTERM");
  rmSync(dataDir, { recursive: true, force: true });
});

test("a burst of readiness probes costs the partner API one health call per window", async () => {
  // Ready first (a fresh database is still being migrated as the server starts).
  await expect.poll(async () => (await fetch(`${origin}/api/ready`)).status, { timeout: 60_000 }).toBe(200);
  const before = await metric(HEALTH_CALLS);
  const burst = await Promise.all(Array.from({ length: 40 }, () => fetch(`${origin}/api/ready`)));
  // Ready, or (on a machine too busy for the database check's 3 s) not: either way, answered.
  for (const response of burst) expect([200, 503]).toContain(response.status);
  for (let i = 0; i < 20; i += 1) expect([200, 503]).toContain((await fetch(`${origin}/api/ready`)).status);
  // 60 probes within a couple of seconds: one call, two if they straddled the end of a window.
  expect((await metric(HEALTH_CALLS)) - before).toBeLessThanOrEqual(2);
  expect((await metric(HEALTH_CALLS)) - before).toBeGreaterThanOrEqual(0);
});

test("status polls and provider returns past a session's budget answer 429 with Retry-After", async () => {
  const opened = await openSession();
  expect(opened.status).toBe(201);
  const { id } = (await opened.json()) as { id: string };
  const polls = await Promise.all(Array.from({ length: 50 }, () => fetch(`${origin}/checkout/${id}/status/data`)));
  const statuses = polls.map((response) => response.status);
  expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(35);
  expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(45);
  const refused = polls.find((response) => response.status === 429);
  await expectRateLimited(refused!, "a poll over budget");

  const back = await fetch(`${origin}/checkout/${id}/return/success`, { redirect: "manual" });
  expect(back.status).toBe(429);
  expect(Number(back.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  expect(back.headers.get("content-type")).toContain("text/html");
  expect(await back.text()).toContain(`/checkout/${id}/status`);
});

test("opening sessions past the partner's and the client's budget answers 429 in the API's format", async () => {
  const started = Date.now();
  const answers = await Promise.all(Array.from({ length: 100 }, () => openSession()));
  const seconds = (Date.now() - started) / 1000;
  const created = answers.filter((response) => response.status === 201).length;
  // 60 a minute with a burst of 60 (less the one opened above), plus one a second while the burst ran.
  expect(created).toBeGreaterThanOrEqual(55);
  expect(created).toBeLessThanOrEqual(60 + Math.ceil(seconds) + 1);
  expect(created).toBeLessThan(100);
  await expectRateLimited(
    answers.find((response) => response.status === 429)!,
    "a session over budget",
  );
});

test("wrong bearer secrets past the client's budget answer 429, then the right one too", async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 12; i += 1) {
    const response = await fetch(`${origin}/api/checkout-sessions/cs_unknown_0000000000`, {
      headers: { Authorization: `Bearer wrong_secret_${i}_0123456789` },
    });
    statuses.push(response.status);
    if (response.status === 429) await expectRateLimited(response, `wrong secret ${i}`);
    else await response.body?.cancel();
  }
  expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
  expect(statuses.slice(10)).toEqual([429, 429]);
  await expectRateLimited(await openSession(), "the right secret from a client over budget");
});

test("the demo shop opens a few checkouts a minute per address, then asks to wait, opening nothing", async ({ page }) => {
  const shop = new ShopPage(page, MESSAGES.en);
  // This instance allows 3 a minute per address, given back continuously: a slow press may win one more.
  const opened = new Set<string>();
  let busy = false;
  for (let press = 0; press < 12 && !busy; press++) {
    await page.goto(`${origin}/`);
    await shop.payButton.click();
    await expect(page).toHaveURL(/\/checkout\/cs_[\w-]+$|\/\?demo=busy$/);
    busy = page.url().endsWith("/?demo=busy");
    if (!busy) opened.add(new URL(page.url()).pathname);
  }
  expect(busy).toBe(true);
  expect(opened.size).toBeGreaterThanOrEqual(3);
  expect(opened.size).toBeLessThan(12);
  await expect(shop.busyNotice).toBeVisible();
});
