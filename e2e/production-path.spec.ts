import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import postgres from "postgres";
import { findTestDatabase } from "../scripts/test-database.mjs";
import { SAMPLE_WIRE_CLIENT } from "@/lib/financing/testing/samples";
import { APP_PORT } from "./support/app";
import { SANDBOX_AGENCY_KEY } from "./support/sandbox";
import { STAND_IN_KEYS, startProductionPath, type ProductionPath } from "./support/production-path";

/**
 * The production path, from an empty PostgreSQL database, with no SQL and no seed
 * (e2e/support/production-path.ts, docs/going-live-tls.md): the production build configured for
 * production, the financing API's stand-in (the sandbox run on its own, production-like, over HTTPS
 * with a certificate from a CA made for the run) and a partner's notification endpoint on loopback.
 * What production would refuse the test with is an operator's setting, never a test-only code path:
 * the private CA (FINANCING_API_CA_FILE, NOTIFICATION_CA_FILE) and a partner on a private network
 * (NOTIFICATION_PRIVATE_HOSTS). Each is shown needed: without it, the same path is refused.
 *
 * Needs PostgreSQL (TEST_DATABASE_URL, or the machine's own server): without one it fails, saying why.
 */
test.describe.configure({ mode: "serial", timeout: 240_000 });

const PORTS = { sandbox: APP_PORT + 35, app: APP_PORT + 36, appWithoutCa: APP_PORT + 37 };

/** A signing secret in the format the app gives partners (lib/checkout/background/notification-send.ts). */
const newSigningSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

interface ProbeOutcome {
  ok: boolean;
  status: number | null;
  failure?: string;
  error?: string;
}

/*
 * The rest of the path, for the lead once operators (the bootstrap command and console) and
 * partner staff roles are merged, each step through the product, none by SQL, on `path` below:
 *
 * TODO(bootstrap operator): `path.runScript(["scripts/admin.ts", "create-operator", "--email", …])`
 *   prints a one-time enrolment link; the operator sets a password and a second factor in the browser.
 * TODO(create partner): the operator creates a partner with its live key, STAND_IN_KEYS.agency101 (a
 *   wrong `fk_live_` key first: refused with the API's reason, "Invalid API key"); notification URL
 *   `path.partnerEndpoint.url` (accepted: NOTIFICATION_PRIVATE_HOSTS lists 127.0.0.1).
 * TODO(signing secret): the partner's signing secret, shown once, given to `path.partnerEndpoint.trust(…)`.
 * TODO(API secret): the operator issues the partner's checkout sessions API secret (shown once).
 * TODO(invite admin): the operator invites the partner's first admin; the admin enrols.
 * TODO(invite agent): the admin invites an agent (without the refund permission); the agent enrols.
 * TODO(open session): the partner's backend opens a checkout session: POST /api/checkout-sessions with the secret.
 * TODO(customer pays): the customer goes through the checkout and the stand-in's hosted pages
 *   (`path.standInOrigin`, https: the browser context needs `ignoreHTTPSErrors`, or the CA) and signs.
 * TODO(notification): `path.partnerEndpoint.waitFor(…)` receives the signed, verified notification.
 * TODO(agent sees): the agent sees the operation in the back-office.
 * TODO(refund): the admin grants refunds or refunds; the stand-in reports the operation REFUNDED.
 * TODO(audit): the audit log shows each step with who did it.
 * TODO(negatives): a revoked secret gets 401 at once; a disabled member's open session ends; the
 *   agent without the refund permission cannot refund (page, action, URL); cross-partner attempts
 *   answer "not found".
 */
test.describe("the production path on an empty PostgreSQL", () => {
  let path: ProductionPath | undefined;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    const database = await findTestDatabase(process.env);
    // The production path is proven on PostgreSQL or not at all: a machine without one fails, saying why.
    if (database.url === undefined) throw new Error(`PostgreSQL is needed: ${database.reason}`);
    path = await startProductionPath({ ports: { sandbox: PORTS.sandbox, app: PORTS.app }, postgresUrl: database.url });
  });

  test.afterAll(async () => {
    await path?.stop();
  });

  const started = (): ProductionPath => {
    if (!path) throw new Error("the production path did not start");
    return path;
  };

  test("starts with no seed, and is ready: the financing API answers over TLS through the operator's CA", async () => {
    const { appUrl, databaseUrl } = started();
    // Observed, not set up: the database holds what the migrations made, and nothing else.
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    try {
      const [counts] = await sql`select (select count(*) from partners)::int as partners, (select count(*) from staff_users)::int as staff`;
      expect(counts).toEqual({ partners: 0, staff: 0 });
    } finally {
      await sql.end();
    }

    // Readiness asks the financing API's health with the deployment's fk_live_ key, over https (a
    // first call on a busy machine may outlast its 2 s: asked again until it answers, or the wait ends).
    const readiness = async () => {
      const response = await fetch(`${appUrl}/api/ready`);
      return { status: response.status, body: (await response.json()) as { status: string; checks: Record<string, string> } };
    };
    await expect.poll(async () => (await readiness()).status, { timeout: 30_000 }).toBe(200);
    expect((await readiness()).body).toEqual({
      status: "ready",
      checks: expect.objectContaining({ database: "ok", migrations: "ok", partnerApi: "ok" }) as unknown,
    });
  });

  test("the stand-in takes fk_live_ keys only, over HTTPS only, and builds its links on its public origin", async () => {
    const { fetchTrusting, financingBaseUrl, standInOrigin } = started();
    const health = (key: string) => fetchTrusting(`${financingBaseUrl}/health`, { headers: { "X-Service-API-Key": key } });
    expect((await health(STAND_IN_KEYS.agency101)).status).toBe(200);
    for (const key of [SANDBOX_AGENCY_KEY, "fk_live_not_a_key_of_the_stand_in"]) {
      const refused = await health(key);
      expect(refused.status, key).toBe(401);
      expect(await refused.json(), key).toMatchObject({ error_description: "Invalid API key" });
    }

    // Nothing but TLS on its port, and a client that does not trust the run's CA is refused.
    await expect(fetch(`${financingBaseUrl.replace("https:", "http:")}/health`)).rejects.toThrow();
    const untrusted = await fetch(`${financingBaseUrl}/health`, { headers: { "X-Service-API-Key": STAND_IN_KEYS.agency101 } }).then(
      () => "answered",
      (error: unknown) => String((error as { cause?: { code?: string } }).cause?.code),
    );
    expect(untrusted).toMatch(/CERT|SELF_SIGNED|UNABLE_TO/);

    // The customer's page (financingUrl) is on the stand-in's public origin, not on the address the call went to.
    const created = await fetchTrusting(`${financingBaseUrl}/operations`, {
      method: "POST",
      headers: { "X-Service-API-Key": STAND_IN_KEYS.agency101, "Content-Type": "application/json" },
      body: JSON.stringify({
        externalId: `PRODPATH-${Date.now()}`,
        packageTravel: true,
        travelersNumber: 1,
        totalPrice: 800,
        client: SAMPLE_WIRE_CLIENT,
        services: [{ description: "Trip" }],
      }),
    });
    const operation = (await created.json()) as { financingUrl?: string };
    expect(created.status, JSON.stringify(operation)).toBe(201);
    expect(new URL(operation.financingUrl!).origin).toBe(standInOrigin);
    expect(standInOrigin).not.toBe(new URL(financingBaseUrl).origin);
  });

  test("without FINANCING_API_CA_FILE, the same build refuses the stand-in's certificate and is not ready", async () => {
    const path = started();
    const instance = await path.startApp("app without the CA", PORTS.appWithoutCa, { FINANCING_API_CA_FILE: "" });
    try {
      const readiness = async () => {
        const response = await fetch(`http://127.0.0.1:${PORTS.appWithoutCa}/api/ready`);
        return { status: response.status, checks: ((await response.json()) as { checks: Record<string, string> }).checks };
      };
      // Refused, not slow: asked again while a busy machine's first call outlasts the check's 2 s.
      await expect.poll(async () => (await readiness()).checks.partnerApi, { timeout: 30_000 }).toBe("failed");
      expect(await readiness()).toEqual({
        status: 503,
        checks: expect.objectContaining({ database: "ok", partnerApi: "failed" }) as unknown,
      });
      // Why, for the operator: the certificate, and the setting that trusts a private CA.
      await expect.poll(() => instance.output.join("")).toContain("TLS certificate was not accepted");
      expect(instance.output.join("")).toContain("FINANCING_API_CA_FILE");
      expect(instance.output.join("")).not.toContain(STAND_IN_KEYS.agency201);
    } finally {
      await instance.stop();
    }
  });

  test("a partner endpoint on loopback gets signed notifications only with NOTIFICATION_PRIVATE_HOSTS and the CA", async () => {
    const { partnerEndpoint, runScript } = started();
    const secret = newSigningSecret();
    partnerEndpoint.trust(secret);
    // The app's own delivery code (sendSigned), run with the app's settings, or these changed.
    const send = async (signingSecret: string, overrides: Record<string, string> = {}): Promise<ProbeOutcome> => {
      const run = await runScript(["e2e/support/notification-probe.ts", partnerEndpoint.url, signingSecret], overrides);
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout.trim().split("\n").at(-1)!) as ProbeOutcome;
    };

    expect(await send(secret)).toEqual({ ok: true, status: 204 });
    expect(partnerEndpoint.received.at(-1)?.payload).toMatchObject({ type: "notification.test" });

    // The endpoint verifies what it gets: a notification signed with another secret is refused.
    expect(await send(newSigningSecret())).toMatchObject({ ok: false, failure: "http", status: 401 });

    const received = partnerEndpoint.received.length;
    // The default: a loopback endpoint is refused before any connection.
    expect(await send(secret, { NOTIFICATION_PRIVATE_HOSTS: "" })).toMatchObject({ ok: false, failure: "refused" });
    // Allowed, but its certificate's CA not trusted: no notification leaves over an unverified connection.
    const untrusted = await send(secret, { NOTIFICATION_CA_FILE: "" });
    expect(untrusted).toMatchObject({ ok: false, failure: "network" });
    expect(untrusted.error).toMatch(/CERT|SELF_SIGNED|UNABLE_TO/);
    expect(partnerEndpoint.received.length).toBe(received);
  });
});
