import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { APIRequestContext } from "@playwright/test";
import { MESSAGES } from "@/lib/i18n/messages";
import { expect, test } from "./fixtures";
import { OperatorConsole } from "./pages/operator/console";
import { ApiSecretsPanel, PartnersConsole } from "./pages/operator/partners-console";
import { APP_PORT, APP_URL, DEMO_PARTNERS, STAFF } from "./support/app";
import { expectNoAxeViolations } from "./support/axe";
import { checkoutSessionBody } from "./support/checkout-sessions";
import { enrolWithLink } from "./support/enrolment";
import { SERVER_ARGS, startProcess, waitUntilOk, type Instance } from "./support/instances";

/*
 * The platform operator's console for partners (app/operator/partners), in a browser, on an app of
 * its own (its own empty database, its own sandbox): the first operator from the command line, then
 * a partner created with no SQL, its settings saved, its financing API key refused when wrong (with
 * the API's reason) and saved once the sandbox answers for it, its API secret created and used by
 * its backend, rotated (both work meanwhile) and revoked (401 at once), its first administrator
 * invited; disabled, its secrets answer 401 and its customer's open checkout says the agency is
 * unavailable; enabled again, everything works.
 * And, on the shared app, a partner's administrator manages its own API secrets in the back-office.
 */

/** POST /api/checkout-sessions as the partner's backend, with `secret`. */
async function openSession(request: APIRequestContext, secret: string, returnUrl?: string) {
  return request.post("/api/checkout-sessions", {
    headers: { Authorization: `Bearer ${secret}` },
    data: checkoutSessionBody(returnUrl ? { returnUrl } : {}),
  });
}

test.describe("the operator's console", () => {
  test.describe.configure({ mode: "serial", timeout: 300_000 });

  const port = APP_PORT + 45;
  const base = `http://localhost:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "travel-checkout-partners-"));
  const env = { PORT: String(port), DATA_DIR: dataDir };
  let app: Instance | undefined;
  let link = "";

  test.use({ baseURL: base, locale: "en-GB" });

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    // An empty database: the command creates the first operator (the server not running yet: PGlite).
    const { stdout } = await promisify(execFile)(
      "npm",
      [
        "run",
        "-s",
        "admin",
        "--",
        "create-operator",
        "--email",
        `ops-${randomUUID().slice(0, 8)}@platform.example`,
        "--name",
        "Olga Operadora",
      ],
      { env: { ...process.env, ...env, APP_URL: base } },
    );
    link = stdout.trim();
    app = startProcess("app", SERVER_ARGS, env, port);
    await waitUntilOk(`http://127.0.0.1:${port}/api/health`, { instance: app, timeoutMs: 180_000 });
  });

  test.afterAll(async () => {
    await app?.stop("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("an operator creates a partner, verifies its key, issues, rotates and revokes its API secret, invites its admin and disables it", async ({
    page,
    admin,
    request,
    browser,
  }) => {
    const ops = new PartnersConsole(page, "en");
    const id = `acme-${Date.now().toString(36)}`;
    // The first operator's access, from the command's one-time link.
    await enrolWithLink(page, admin.m, link);
    await page.getByRole("link", { name: admin.m.security.enrolForm.continueLabel }).click();
    await new OperatorConsole(page, "en").expectHome("Olga Operadora");

    // Wrong input is said on its field, and nothing is created; a demo partner's id is reserved.
    await page.goto("/operator/partners/new");
    await page.getByRole("textbox", { name: ops.m.create.id }).fill("Not An Id");
    await page.getByRole("button", { name: ops.m.create.submit }).click();
    await expect(page.getByRole("group", { name: ops.m.create.summaryTitle })).toBeVisible();
    await expect(page.getByText(ops.m.create.errors.invalid).first()).toBeVisible();
    await expect(page.getByText(ops.m.create.errors.missing).first()).toBeVisible();
    await page.getByRole("textbox", { name: ops.m.create.id }).fill("demo");
    await page.getByRole("textbox", { name: ops.m.create.name }).fill("Not the demo");
    await page.getByRole("button", { name: ops.m.create.submit }).click();
    await expect(page.getByText(ops.m.create.errors.reserved).first()).toBeVisible();
    await expect(page).toHaveURL(/\/operator\/partners\/new$/);

    await ops.create(id, "Acme Travel (e2e)");
    await expectNoAxeViolations(page, "a new partner's page");
    // No origin yet: no session can be opened for it.
    await ops.saveSettings({ origins: base, returnUrl: `${base}/` });

    // A wrong key: refused with the API's own reason, nothing saved.
    await ops.submitKey("agency", "fk_test_not_a_key_of_anyone");
    await expect(ops.credential.getByRole("alert")).toContainText("401");
    await expect(ops.currentCredential(ops.m.credentials.deployment)).toBeVisible();
    // A group key: its agencies offered, one picked.
    await ops.submitKey("group", "fk_test_sandbox_group_1");
    await ops.pickAgency("Viajes Brisa (102)");
    await expect(ops.credential.getByRole("status").filter({ hasText: ops.m.credential.saved })).toBeVisible();
    await expect(ops.currentCredential("Group key ····up_1 · agency 102")).toBeVisible();
    // An agency key, checked with GET /health; never shown again.
    await ops.submitKey("agency", "fk_test_sandbox_agency_201");
    await expect(ops.currentCredential("Agency key ····_201")).toBeVisible();
    await expect(page.getByText("fk_test_sandbox_agency_201")).toHaveCount(0);

    await ops.setAgencies("201");

    // The API secret, shown once, opens sessions for this partner.
    const first = await ops.secrets.create("Production backend");
    expect(first).toMatch(/^cs_test_[A-Za-z0-9_-]{64}$/);
    const opened = await openSession(request, first, `${base}/`);
    expect(opened.status()).toBe(201);
    const session = (await opened.json()) as { id: string; url: string };
    await page.reload();
    await expect(ops.secrets.newSecret).toHaveCount(0);
    await expect(page.getByText(first)).toHaveCount(0);

    // Rotated: both work during the overlap; the old one revoked: 401 at once, the new one goes on.
    const second = await ops.secrets.rotate("Production backend");
    expect(second).not.toBe(first);
    expect((await openSession(request, first, `${base}/`)).status()).toBe(201);
    expect((await openSession(request, second, `${base}/`)).status()).toBe(201);
    await ops.secrets.revokeReplaced("Production backend");
    const revoked = await openSession(request, first, `${base}/`);
    expect(revoked.status()).toBe(401);
    expect((await revoked.json()).error.code).toBe("unauthorized");
    expect((await openSession(request, second, `${base}/`)).status()).toBe(201);

    const invitation = await ops.inviteAdmin(`admin+${id}@acme.example`, "Ana Admin");
    expect(invitation).toMatch(new RegExp(`^${base}/admin/login/link/[A-Za-z0-9_-]{43}$`));

    // Disabled: its secret answers 401 at once, its customer's checkout says the agency is unavailable.
    await ops.setDisabled(true);
    expect((await openSession(request, second, `${base}/`)).status()).toBe(401);
    const customer = await browser.newContext({ baseURL: base, locale: "es-ES" });
    try {
      const checkout = await customer.newPage();
      const es = MESSAGES.es;
      // This instance forgot the partner on the change (another one would within its cache's seconds).
      await checkout.goto(session.url);
      await expect(checkout).toHaveURL(new RegExp(`/checkout/${session.id}/unavailable$`));
      await expect(checkout.getByRole("heading", { level: 1, name: es.agencyUnavailable.title })).toBeVisible();
      await expect(checkout.getByText(es.agencyUnavailable.body("Acme Travel (e2e)"))).toBeVisible();
      await expectNoAxeViolations(checkout, "a disabled partner's checkout");

      await ops.setDisabled(false);
      expect((await openSession(request, second, `${base}/`)).status()).toBe(201);
      await checkout.goto(session.url);
      await expect(checkout.getByRole("heading", { level: 1, name: es.form.title })).toBeVisible();
    } finally {
      await customer.close();
    }

    await ops.gotoList();
    const row = page.getByRole("row").filter({ hasText: id });
    await expect(row).toContainText("Active");
    await expect(row).toContainText("Agency key ····_201");
    await expectNoAxeViolations(page, "the partners list");
  });
});

test.describe("the back-office's API secrets", () => {
  test.use({ baseURL: APP_URL, locale: "en-GB" });

  test("a partner's administrator creates and revokes their own API secret", async ({ page, admin, request }) => {
    const secrets = new ApiSecretsPanel(page, new PartnersConsole(page, "en").m);
    await admin.signIn(STAFF.aurora);
    await admin.shell.section("apiSecrets").click();
    await expect(page.getByRole("heading", { level: 1, name: secrets.t.title })).toBeVisible();
    // The published demo secret is listed by its first characters only.
    await expect(secrets.row("Published demo secret")).toContainText(DEMO_PARTNERS.demo.secret.slice(0, 12));

    // …and, made before scopes, may do everything: its list says so.
    await expect(secrets.row("Published demo secret")).toContainText(secrets.t.scopes.all);

    // A secret that may only read: opening a session is a 403 naming the scope it lacks.
    const reader = `Reader ${Date.now().toString(36)}`;
    const readOnly = await secrets.create(reader, ["sessions:read"]);
    await expect(secrets.row(reader)).toContainText(secrets.t.scopes["sessions:read"]);
    await expect(secrets.row(reader)).not.toContainText(secrets.t.scopes["sessions:open"]);
    const refused = await openSession(request, readOnly);
    expect(refused.status()).toBe(403);
    expect((await refused.json()).error).toMatchObject({ code: "insufficient_scope", requiredScope: "sessions:open" });
    expect((await request.get("/api/checkout-sessions", { headers: { Authorization: `Bearer ${readOnly}` } })).status()).toBe(200);
    await secrets.revokeAll(reader);

    const name = `Staging ${Date.now().toString(36)}`;
    const secret = await secrets.create(name);
    expect((await openSession(request, secret)).status()).toBe(201);
    await expectNoAxeViolations(page, "the back-office's API secrets");
    await secrets.revokeAll(name);
    expect((await openSession(request, secret)).status()).toBe(401);
    await expect(secrets.row(name)).toContainText(secrets.t.states.revoked);
    // The demo's own secret is untouched.
    expect((await openSession(request, DEMO_PARTNERS.demo.secret)).status()).toBe(201);
  });

  test("an agent has no API secrets: not in the menu, and the page is refused", async ({ page, admin }) => {
    await admin.signIn(STAFF.agent);
    await expect(admin.shell.section("apiSecrets")).toHaveCount(0);
    expect((await page.goto("/admin/settings/api-secrets"))?.status()).toBe(403);
  });
});
