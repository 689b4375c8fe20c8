import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { Backoffice } from "./pages/admin/backoffice";
import { ServiceHomePage } from "./pages/service-home-page";
import { ShopPage } from "./pages/shop-page";
import { APP_PORT, DEMO_PARTNERS, STAFF } from "./support/app";
import { checkoutSessionBody } from "./support/checkout-sessions";
import { startProcess, waitUntilOk, type Instance, SERVER_ARGS } from "./support/instances";
import { expectNoAxeViolations } from "./support/axe";
import { SANDBOX_AGENCY_KEY } from "./support/sandbox";
import { SAMPLE_TRIP_PRICE_CENTS, sampleTrip } from "@/app/actions/demo-trip";
import { formatAmount } from "@/lib/i18n/format";
import { MESSAGES } from "@/lib/i18n/messages";

/**
 * Production-safe by construction: the same build, started with a production
 * configuration (the production partner API, a `fk_live_` key, SECRETS_KEYS), serves no sandbox and
 * no demo, and refuses to start on a sandbox's data that still holds the demo, or with the sandbox
 * switched on. The production API's host does not exist: nothing at start may need it. Each server
 * is the production build the web server made, as a process of its own, on its own data and port.
 */
test.describe.configure({ mode: "serial", timeout: 180_000 });

const PRODUCTION_KEY = "fk_live_e2e_production_key_5f3a9c";
const SECRETS_KEY = Buffer.from("e2e-production-secrets-key-32-b!").toString("base64");

function productionEnv(port: number, dataDir: string): Record<string, string> {
  return {
    PORT: String(port),
    APP_URL: `http://localhost:${port}`,
    DATA_DIR: dataDir,
    FINANCING_API_BASE_URL: "https://api.financing.example/v1",
    FINANCING_API_KEY: PRODUCTION_KEY,
    SECRETS_KEYS: `e2e1:${SECRETS_KEY}`,
    // Whatever the runner's own environment holds: empty is unset.
    DATABASE_URL: "",
    SANDBOX_ENABLED: "",
    DEMO_PARTNER_SECRET: "",
    DEMO_PARTNER_EXTRA_ORIGINS: "",
  };
}

function sandboxEnv(port: number, dataDir: string): Record<string, string> {
  return { PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: "", FINANCING_API_BASE_URL: "", FINANCING_API_KEY: "", SECRETS_KEYS: "" };
}

/** Waits for a process that should refuse to start; one that starts instead is killed after a while. */
async function exitOf(instance: Instance, timeoutMs = 60_000): Promise<{ code: number | null; output: string }> {
  const timer = setTimeout(() => instance.child.kill("SIGKILL"), timeoutMs);
  if (instance.child.exitCode === null && instance.child.signalCode === null) await once(instance.child, "exit");
  clearTimeout(timer);
  return { code: instance.child.exitCode, output: instance.output.join("") };
}

function tempDir(name: string): string {
  return mkdtempSync(path.join(os.tmpdir(), `travel-checkout-${name}-`));
}

/** The hidden field naming a server action in a no-JavaScript form, as the sandbox's home page renders it. */
async function demoActionField(): Promise<string> {
  const html = await (await fetch(`http://127.0.0.1:${APP_PORT}/`, { headers: { "Accept-Language": "en" } })).text();
  // The page has other forms (the language switcher): the one with the pay button.
  const form = html.split("<form").find((chunk) => chunk.split("</form>")[0]!.includes(MESSAGES.en.shop.payButton));
  const field = form && /name="(\$ACTION_ID_[0-9a-f]+)"/.exec(form)?.[1];
  if (!field) throw new Error("the sandbox's demo shop offers no action form");
  return field;
}

/** Posts the demo shop's action as a browser without JavaScript would; answers where it leads. */
async function postDemoAction(origin: string, field: string): Promise<{ status: number; location: string | null }> {
  const form = new FormData();
  form.set(field, "");
  const response = await fetch(`${origin}/`, { method: "POST", body: form, headers: { Origin: origin }, redirect: "manual" });
  await response.body?.cancel();
  return { status: response.status, location: response.headers.get("location") };
}

test.describe("a production configuration on fresh data", () => {
  const port = APP_PORT + 40;
  const origin = `http://localhost:${port}`;
  const dataDir = tempDir("production");
  let app: Instance | undefined;

  test.beforeAll(async () => {
    app = startProcess("production", SERVER_ARGS, productionEnv(port, dataDir), port);
    await waitUntilOk(`http://127.0.0.1:${port}/api/health`, { timeoutMs: 180_000, instance: app });
  });

  test.afterAll(async () => {
    await app?.stop("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("answers 404 under /sandbox: its API, control API, OpenAPI document and pages", async () => {
    const requests: [string, RequestInit][] = [
      ["/sandbox/v1/health", { headers: { "X-Service-API-Key": SANDBOX_AGENCY_KEY } }],
      ["/sandbox/v1/openapi.json", {}],
      ["/sandbox/v1/financing/simulate/1000?countryCode=ESP", { headers: { "X-Service-API-Key": SANDBOX_AGENCY_KEY } }],
      ["/sandbox/_control/reset", { method: "POST", headers: { "X-Service-API-Key": SANDBOX_AGENCY_KEY } }],
      ["/sandbox/_control/webhook-targets", { method: "POST", headers: { "X-Service-API-Key": SANDBOX_AGENCY_KEY } }],
      ["/sandbox", {}],
      ["/sandbox/", {}],
      ["/sandbox/pay/op_1", {}],
      ["/sandbox/provider/op_1?redirect=https://elsewhere.example/", {}],
    ];
    for (const [url, init] of requests) {
      // Followed (Next sends `/sandbox/` to `/sandbox`): wherever it leads, it stays here and is a 404.
      const response = await fetch(`${origin}${url}`, init);
      await response.body?.cancel();
      expect(new URL(response.url).origin, url).toBe(origin);
      expect(response.status, url).toBe(404);
    }
  });

  test("answers 401 to the published demo partners' bearer secrets on the checkout sessions API", async () => {
    for (const partner of Object.values(DEMO_PARTNERS)) {
      const response = await fetch(`${origin}/api/checkout-sessions`, {
        method: "POST",
        headers: { Authorization: `Bearer ${partner.secret}`, "Content-Type": "application/json" },
        body: JSON.stringify(checkoutSessionBody({ returnUrl: `${origin}/` })),
      });
      expect(response.status, partner.slug).toBe(401);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    }
    const demoBackend = await fetch(`${origin}/api/demo/notifications`, {
      headers: { Authorization: `Bearer ${DEMO_PARTNERS.demo.secret}` },
    });
    expect(demoBackend.status).toBe(404);
  });

  test("publishes an OpenAPI document that names no demo secret", async () => {
    const response = await fetch(`${origin}/api/openapi.json`);
    expect(response.status).toBe(200);
    const text = await response.text();
    for (const partner of Object.values(DEMO_PARTNERS)) expect(text, partner.slug).not.toContain(partner.secret);
    expect(text).not.toContain("demo_partner_secret");
  });

  test("refuses the published demo staff accounts", async ({ browser }) => {
    const context = await browser.newContext({ baseURL: origin, locale: "en-GB" });
    try {
      const admin = new Backoffice(await context.newPage(), "en");
      for (const account of Object.values(STAFF)) {
        await admin.login.goto();
        // The password step: refused there, so there is no second step to reach.
        await admin.login.signInPasswordOnly(account);
        await expect(admin.login.error).toContainText(admin.m.loginForm.invalid);
        await admin.login.expectShown();
      }
    } finally {
      await context.close();
    }
  });

  test("offers no demo shop, and its action, posted by hand, opens no checkout session", async ({ browser }) => {
    const context = await browser.newContext({ baseURL: origin, locale: "en-GB" });
    try {
      const page = await context.newPage();
      const shop = new ShopPage(page, MESSAGES.en);
      await shop.goto();
      await expect(shop.main).toBeVisible();
      await expect(shop.payButton).toHaveCount(0);
      // No demo leftover either: no sample trip, no price, no sandbox trigger tags, no demo text.
      const body = page.locator("body");
      for (const leftover of [
        sampleTrip("en").packageName,
        MESSAGES.en.shop.shopName,
        MESSAGES.en.shop.tripHeading,
        MESSAGES.en.shop.triggersHeading,
        MESSAGES.en.shop.unavailable,
        "+refuse_",
        "sandbox",
      ]) {
        await expect(body, leftover).not.toContainText(leftover, { ignoreCase: true });
      }
      await expect(body).not.toContainText(formatAmount({ cents: SAMPLE_TRIP_PRICE_CENTS, currency: "EUR" }, "en"));
      // What the service is, and where each visitor goes, in the visitor's language.
      const home = new ServiceHomePage(page, MESSAGES.en);
      await expect(home.heading).toHaveText(MESSAGES.en.home.title);
      await expect(home.main).toContainText(MESSAGES.en.home.customerBody);
      await expect(home.staffLink).toHaveAttribute("href", "/admin");
      await expectNoAxeViolations(page, "the production home page");
      await home.languages.button("es").click();
      const inSpanish = new ServiceHomePage(page, MESSAGES.es);
      await expect(inSpanish.heading).toHaveText(MESSAGES.es.home.title);
      await expect(body).not.toContainText(sampleTrip("es").packageName);
      // The page's title comes after its body in the refresh (Next streams metadata): checked once it is there.
      await expect(page).toHaveTitle(new RegExp(MESSAGES.es.meta.appName.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
      await expectNoAxeViolations(page, "the production home page, in Spanish");
      await inSpanish.staffLink.click();
      await expect(page).toHaveURL(/\/admin\/login/);
    } finally {
      await context.close();
    }
    // The same build's action id, taken from the sandbox's shop, where it does open a session.
    const field = await demoActionField();
    const onSandbox = await postDemoAction(`http://localhost:${APP_PORT}`, field);
    expect(onSandbox.location).toMatch(/\/checkout\/cs_/);
    const onProduction = await postDemoAction(origin, field);
    expect(onProduction.location ?? "").not.toMatch(/\/checkout\//);
  });
});

test.describe("a sandbox's data moved to production", () => {
  const sandboxPort = APP_PORT + 41;
  const productionPort = APP_PORT + 42;
  const dataDir = tempDir("moved");
  const started: Instance[] = [];

  test.afterAll(async () => {
    for (const instance of started) await instance.stop("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("refuses to start while it holds the demo, naming npm run demo:remove; starts once it has run", async () => {
    // The sandbox seeds its demo partners and staff.
    const sandbox = startProcess("sandbox", SERVER_ARGS, sandboxEnv(sandboxPort, dataDir), sandboxPort);
    started.push(sandbox);
    await waitUntilOk(`http://127.0.0.1:${sandboxPort}/api/health`, { timeoutMs: 180_000, instance: sandbox });
    await sandbox.stop("SIGTERM");

    const refused = startProcess("production", SERVER_ARGS, productionEnv(productionPort, dataDir), productionPort);
    started.push(refused);
    const { code, output } = await exitOf(refused);
    expect(code).toBe(1);
    expect(output).toContain("npm run demo:remove");
    expect(output).not.toContain(PRODUCTION_KEY);
    expect(output).not.toContain(SECRETS_KEY);

    const remove = spawn("npm", ["run", "--silent", "demo:remove"], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
      stdio: "ignore",
    });
    const [removed] = (await once(remove, "exit")) as [number | null];
    expect(removed).toBe(0);

    const production = startProcess("production", SERVER_ARGS, productionEnv(productionPort, dataDir), productionPort);
    started.push(production);
    await waitUntilOk(`http://127.0.0.1:${productionPort}/api/health`, { timeoutMs: 180_000, instance: production });
    const response = await fetch(`http://127.0.0.1:${productionPort}/api/checkout-sessions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${DEMO_PARTNERS.demo.secret}`, "Content-Type": "application/json" },
      body: JSON.stringify(checkoutSessionBody()),
    });
    expect(response.status).toBe(401);
  });
});

test.describe("refusals at start with the production partner API", () => {
  const port = APP_PORT + 43;

  for (const [variable, extra] of [
    ["SANDBOX_ENABLED", { SANDBOX_ENABLED: "true" }],
    ["DEMO_PARTNER_SECRET", { DEMO_PARTNER_SECRET: "demo_partner_secret_sandbox_only" }],
    ["SECRETS_KEYS", { SECRETS_KEYS: "" }],
  ] as const) {
    test(`exits naming ${variable}`, async () => {
      const dataDir = tempDir("refused");
      try {
        const instance = startProcess("production", SERVER_ARGS, { ...productionEnv(port, dataDir), ...extra }, port);
        const { code, output } = await exitOf(instance);
        expect(code).toBe(1);
        expect(output).toContain(`${variable}:`);
        expect(output).not.toContain(PRODUCTION_KEY);
        expect(output).not.toContain(SECRETS_KEY);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }
});
