import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { Agent, fetch as undiciFetch } from "undici";
import { findTestDatabase } from "../scripts/test-database.mjs";
import { ADMIN_MESSAGES } from "@/lib/i18n/admin-messages";
import { expect, test } from "./fixtures";
import { AdminSignInPage } from "./pages/admin/sign-in-page";
import { APP_PORT, DEMO_PARTNERS } from "./support/app";
import { checkoutSessionBody, CheckoutSessionsApi } from "./support/checkout-sessions";
import { outputTail, SERVER_ARGS, startProcess, waitUntilOk, type Instance } from "./support/instances";
import { findNginx, NGINX_MISSING, recipeEnvironment, recipeSiteConfig, startNginx, type Nginx } from "./support/nginx";
import { SANDBOX_AGENCY_KEY, type SandboxWebhookEvent } from "./support/sandbox";
import { createTestCa, writeCaCertificate, writePemPair } from "./support/test-ca";

/**
 * The production recipe (docs/operators/production.md), started as written: nginx from Debian's
 * packages, its site configuration read from that page, terminating TLS (a certificate from a CA
 * made for the run) in front of two instances of the production build on one new PostgreSQL
 * database, with the recipe's TRUSTED_PROXY_HOPS and drain delay. The partner API is the bundled
 * sandbox run on its own, trusting the run's CA for the webhooks it posts through nginx.
 *
 * Needs the production build the web server made, nginx (scripts/e2e.mjs installs it as root on
 * Debian; without it the spec fails saying so) and PostgreSQL (without it the spec fails, saying why).
 */
test.describe.configure({ mode: "serial", timeout: 300_000 });
// The browser and Playwright's requests reach nginx over TLS with the run's CA, which they are not
// told to trust; the load's own client (undici) is, and checks the certificate.
test.use({ ignoreHTTPSErrors: true, locale: "en-GB" });

const PORTS = {
  https: APP_PORT + 52,
  http: APP_PORT + 53,
  sandbox: APP_PORT + 54,
  one: APP_PORT + 55,
  two: APP_PORT + 56,
  restored: APP_PORT + 57,
};
const BASE = `https://127.0.0.1:${PORTS.https}`;
const SANDBOX_ORIGIN = `http://127.0.0.1:${PORTS.sandbox}`;
const PARTNER = DEMO_PARTNERS.demo;
const SHARED_ENV = {
  WEBHOOK_TOKEN: `recipe_${randomBytes(18).toString("hex")}`,
  NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
  METRICS_TOKEN: `recipe-metrics-${randomBytes(12).toString("hex")}`,
};

let dir: string;
let admin: postgres.Sql | undefined;
let sql: postgres.Sql | undefined;
const databases: string[] = [];
let databaseUrl: string;
let sandbox: Instance | undefined;
let nginx: Nginx | undefined;
const instances: Instance[] = [];
let trusting: Agent;

function databaseUrlOf(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** An instance of the production build, configured as the recipe's environment file says, with this run's stand-ins. */
function appInstance(name: string, port: number, database: string): Instance {
  const recipe = recipeEnvironment();
  return startProcess(
    name,
    SERVER_ARGS,
    {
      PORT: String(port),
      DATA_DIR: path.join(dir, `data-${name}`),
      DATABASE_URL: database,
      APP_URL: BASE,
      // From the recipe as written: one proxy, and its drain delay.
      TRUSTED_PROXY_HOPS: recipe.TRUSTED_PROXY_HOPS!,
      SHUTDOWN_DRAIN_DELAY_MS: recipe.SHUTDOWN_DRAIN_DELAY_MS!,
      NODE_ENV: recipe.NODE_ENV!,
      // The sandbox stands in for the production API (its published keys, plain HTTP on loopback).
      FINANCING_API_BASE_URL: `${SANDBOX_ORIGIN}/sandbox/v1`,
      FINANCING_API_KEY: SANDBOX_AGENCY_KEY,
      SANDBOX_ENABLED: "false",
      // Every request of the load comes from one client of one partner: the throttles' defaults are
      // tested elsewhere (e2e/anonymous-budgets.spec.ts), not here.
      SESSIONS_API_CREATE_PER_MINUTE_PARTNER: "100000",
      SESSIONS_API_CREATE_PER_MINUTE_IP: "100000",
      ...SHARED_ENV,
    },
    port,
  );
}

async function ready(instance: Instance): Promise<void> {
  await waitUntilOk(`http://127.0.0.1:${instance.port}/api/ready`, { instance, timeoutMs: 180_000 });
}

/** Through nginx, trusting the run's CA (and only it). */
function viaProxy(pathname: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) {
  return undiciFetch(`${BASE}${pathname}`, { ...init, dispatcher: trusting, signal: AbortSignal.timeout(30_000) });
}

/**
 * The sandbox's control API, with a client of its own: undici follows the server's keep-alive
 * hint, where a long-lived Playwright request context may reuse a connection the server is closing.
 */
async function sandboxControl<T>(pathname: string, body?: unknown): Promise<{ status: number; json: T }> {
  const response = await undiciFetch(`${SANDBOX_ORIGIN}/sandbox/_control${pathname}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "X-Service-API-Key": SANDBOX_AGENCY_KEY, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, json: (await response.json()) as T };
}

const acknowledgedBySandbox = async (operationId: string): Promise<boolean | undefined> =>
  (await sandboxControl<SandboxWebhookEvent[]>(`/operations/${operationId}/webhooks`)).json[0]?.acknowledged;

const partnerHeaders = { Authorization: `Bearer ${PARTNER.secret}`, "Content-Type": "application/json" };

interface Outcome {
  at: number;
  what: string;
  ok: boolean;
  detail: string;
}

/**
 * A light steady load through nginx, as partners' backends and customers make it: a session opened,
 * its checkout page loaded, the session read back; again, until stopped. Every answer is recorded.
 */
function startLoad() {
  const outcomes: Outcome[] = [];
  const sessions: string[] = [];
  let running = true;
  const record = async (what: string, request: () => Promise<{ status: number; text: () => Promise<string> }>, expected: number) => {
    try {
      const response = await request();
      const body = await response.text();
      const ok = response.status === expected;
      outcomes.push({ at: Date.now(), what, ok, detail: ok ? String(response.status) : `${response.status} ${body.slice(0, 200)}` });
      return ok ? body : undefined;
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
      outcomes.push({ at: Date.now(), what, ok: false, detail: cause });
      return undefined;
    }
  };
  const loop = (async () => {
    while (running) {
      const body = JSON.stringify(checkoutSessionBody({ reference: `RECIPE-${randomBytes(5).toString("hex")}`, returnUrl: `${BASE}/` }));
      const created = await record(
        "open a session",
        () => viaProxy("/api/checkout-sessions", { method: "POST", body, headers: partnerHeaders }),
        201,
      );
      if (created) {
        const { id } = JSON.parse(created) as { id: string };
        sessions.push(id);
        await record("load its checkout page", () => viaProxy(`/checkout/${id}`, { headers: { "Accept-Language": "en" } }), 200);
        await record("read it back", () => viaProxy(`/api/checkout-sessions/${id}`, { headers: partnerHeaders }), 200);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    outcomes,
    sessions,
    async stop() {
      running = false;
      await loop;
    },
  };
}

/** SIGTERM, the process's drain and exit, then the same instance started again and ready. */
async function restart(index: number): Promise<{ stoppedAt: number; readyAt: number }> {
  const old = instances[index]!;
  const stoppedAt = Date.now();
  await old.stop("SIGTERM");
  expect(old.child.exitCode, `${old.name} exits 0 after its drain\n${outputTail(old)}`).toBe(0);
  const fresh = appInstance(old.name, old.port, databaseUrl);
  instances[index] = fresh;
  await ready(fresh);
  return { stoppedAt, readyAt: Date.now() };
}

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const database = await findTestDatabase(process.env);
  // Proven on PostgreSQL or not at all: a machine without one fails, saying why.
  if (database.url === undefined) throw new Error(`PostgreSQL is needed: ${database.reason}`);
  const nginxBinary = findNginx();
  if (!nginxBinary) throw new Error(NGINX_MISSING);

  dir = mkdtempSync(path.join(os.tmpdir(), "production-recipe-"));
  admin = postgres(database.url!, { max: 1, onnotice: () => {} });
  const name = `e2e_recipe_${randomBytes(4).toString("hex")}`;
  await admin.unsafe(`create database ${name}`);
  databases.push(name);
  databaseUrl = databaseUrlOf(database.url!, name);
  sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });

  const ca = createTestCa("Production recipe test CA");
  const caFile = writeCaCertificate(dir, ca);
  const { certificateFile, keyFile } = writePemPair(dir, "fullchain", ca.issue(["localhost", "127.0.0.1", "::1"]));
  trusting = new Agent({ connect: { ca: ca.certificate } });

  // The partner API: the sandbox on its own, posting its webhooks to APP_URL (nginx, https) and
  // trusting the run's CA for them, as the real API trusts the public CAs.
  sandbox = startProcess(
    "sandbox",
    ["--import", "tsx", "--import", "./scripts/server-only-stub.mjs", "scripts/sandbox.ts", "--port", String(PORTS.sandbox)],
    { DATA_DIR: path.join(dir, "sandbox"), NODE_EXTRA_CA_CERTS: caFile },
    PORTS.sandbox,
  );
  nginx = await startNginx(
    nginxBinary,
    path.join(dir, "nginx"),
    recipeSiteConfig({
      httpsPort: PORTS.https,
      httpPort: PORTS.http,
      upstreamPorts: [PORTS.one, PORTS.two],
      certificateFile,
      keyFile,
    }),
    PORTS.https,
  );
  await waitUntilOk(`${SANDBOX_ORIGIN}/sandbox/v1/health`, { headers: { "X-Service-API-Key": SANDBOX_AGENCY_KEY }, instance: sandbox });
  // The first creates the tables; the second may start at the same time (migrations take a lock).
  instances.push(appInstance("one", PORTS.one, databaseUrl), appInstance("two", PORTS.two, databaseUrl));
  for (const instance of instances) await ready(instance);
  await expect.poll(async () => (await viaProxy("/api/ready")).status, { timeout: 30_000 }).toBe(200);
});

test.afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.stop()));
  await sandbox?.stop();
  await nginx?.stop();
  await sql?.end();
  for (const name of databases) await admin?.unsafe(`drop database if exists ${name} with (force)`);
  await admin?.end();
  await trusting?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("restarting one instance and then the other under load fails no request and loses no checkout or webhook", async ({
  page,
  request,
  checkout,
}) => {
  const api = new CheckoutSessionsApi(request, PARTNER, BASE);
  // Two customers at the provider, through nginx: their outcomes will be decided during the restarts.
  const customers = [
    await checkout.atProvider(api, `RECIPE-A-${Date.now()}`, BASE),
    await checkout.atProvider(api, `RECIPE-B-${Date.now()}`, BASE),
  ];
  await page.close();

  const load = startLoad();
  await expect.poll(() => load.sessions.length, { timeout: 30_000 }).toBeGreaterThan(3);

  // Each outcome is decided as an instance goes down: the sandbox posts its webhook through nginx.
  const decideDuring = async (index: number, customer: { operationId: string }) => {
    const restarting = restart(index);
    expect((await sandboxControl(`/operations/${customer.operationId}/decision`, { decision: "approve" })).status).toBe(200);
    return restarting;
  };
  const first = await decideDuring(0, customers[0]!);
  const second = await decideDuring(1, customers[1]!);
  // A few more rounds once both are back.
  const served = load.outcomes.length;
  await expect.poll(() => load.outcomes.length, { timeout: 30_000 }).toBeGreaterThan(served + 6);
  await load.stop();

  const failed = load.outcomes.filter((outcome) => !outcome.ok);
  expect(failed, `failed requests (nginx's error log:\n${nginx!.errorLog()})`).toEqual([]);
  // The load ran through both restarts, not around them.
  for (const window of [first, second]) {
    expect(load.outcomes.filter((outcome) => outcome.at > window.stoppedAt && outcome.at < window.readyAt).length).toBeGreaterThan(3);
  }
  // Both instances answered requests of the load (nginx's access log names the upstream).
  const log = nginx!.accessLog();
  for (const port of [PORTS.one, PORTS.two]) expect(log).toContain(`upstream=127.0.0.1:${port}/`);

  // No checkout lost: every session opened is in the database and reads back through nginx.
  const ids = load.sessions;
  const [{ count }] = (await sql!`select count(*)::int as count from checkout_sessions where id = any(${ids})`) as unknown as [
    { count: number },
  ];
  expect(count).toBe(ids.length);
  for (const id of ids.slice(-3)) expect((await viaProxy(`/api/checkout-sessions/${id}`, { headers: partnerHeaders })).status).toBe(200);

  // No webhook lost: each decision reached the app, was applied and acknowledged.
  for (const customer of customers) {
    await expect
      .poll(
        async () => (await sql!`select operation_status from checkout_sessions where id = ${customer.sessionId}`)[0]?.operation_status,
        {
          timeout: 60_000,
        },
      )
      .toBe("CONFIRMED");
    await expect.poll(() => acknowledgedBySandbox(customer.operationId), { timeout: 60_000 }).toBe(true);
    const [event] = await sql!`select result from webhook_events where operation_id = ${customer.operationId}`;
    expect(event?.result).toBe("acknowledged");
  }
});

test("the sign-in limits and the audit log see the address nginx appended, not the client's own X-Forwarded-For", async ({ browser }) => {
  // Over IPv6 loopback to nginx, which reaches the instances over IPv4: the client's address (::1)
  // differs from the address the instances' sockets see (127.0.0.1), and the client adds a forged entry.
  const context = await browser.newContext({
    ignoreHTTPSErrors: true,
    locale: "en-GB",
    extraHTTPHeaders: { "X-Forwarded-For": "203.0.113.9" },
  });
  const page = await context.newPage();
  const signIn = new AdminSignInPage(page, ADMIN_MESSAGES.en);
  const email = `recipe-${randomBytes(4).toString("hex")}@agency.example`;
  await page.goto(`https://[::1]:${PORTS.https}/admin/login`);
  await signIn.signIn({ email, password: "not the password of anyone" });
  await expect(signIn.error).toBeVisible();
  await context.close();

  const rows = await sql!`select ip from audit_events where kind = 'sign_in_failed' order by id desc limit 1`;
  expect(rows[0]?.ip).toBe("::1");
  // What nginx passed on: the forged entry first, its own view of the client last.
  expect(nginx!.accessLog()).toContain('xff="203.0.113.9"');
});

test("a backup taken while serving restores into a new database that the app then serves", async ({ request }) => {
  const api = new CheckoutSessionsApi(request, PARTNER, BASE);
  const before = await api.open({ reference: `RECIPE-BACKUP-${Date.now()}`, returnUrl: `${BASE}/`, locale: "en" });
  const dump = path.join(dir, "backup.dump");

  const load = startLoad();
  await expect.poll(() => load.sessions.length, { timeout: 30_000 }).toBeGreaterThan(2);
  await run("pg_dump", ["--format=custom", `--file=${dump}`, databaseUrl]);
  await load.stop();
  expect(load.outcomes.filter((outcome) => !outcome.ok)).toEqual([]);

  const restoredName = `${databases[0]}_restored`;
  await admin!.unsafe(`create database ${restoredName}`);
  databases.push(restoredName);
  const restoredUrl = databaseUrlOf(databaseUrl, restoredName);
  await run("pg_restore", ["--no-owner", `--dbname=${restoredUrl}`, dump]);

  const restored = appInstance("restored", PORTS.restored, restoredUrl);
  instances.push(restored);
  await ready(restored);
  const read = await request.get(`http://127.0.0.1:${PORTS.restored}/api/checkout-sessions/${before.id}`, {
    headers: { Authorization: `Bearer ${PARTNER.secret}` },
  });
  expect(read.status()).toBe(200);
  expect(await read.json()).toMatchObject({ id: before.id, bookingReference: before.bookingReference });
  const pageLoad = await request.get(`http://127.0.0.1:${PORTS.restored}/checkout/${before.id}`);
  expect(pageLoad.status()).toBe(200);
});

/** Runs a PostgreSQL client tool; fails with its output. */
function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    const output: string[] = [];
    child.stdout.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    child.on("error", (error) => reject(new Error(`${command} could not run (${error.message}): it comes with PostgreSQL's client tools`)));
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited ${code}:\n${output.join("")}`))));
  });
}
