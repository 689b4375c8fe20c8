import { execFile } from "node:child_process";
import { randomInt, randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { findTestDatabase } from "../scripts/test-database.mjs";
import { Backoffice } from "./pages/admin/backoffice";
import { AuditPage } from "./pages/admin/security-pages";
import { StaffPages } from "./pages/admin/staff-pages";
import { CheckoutPages } from "./pages/checkout-pages";
import { PartnersConsole } from "./pages/operator/partners-console";
import { APP_PORT, type StaffAccount } from "./support/app";
import { checkoutSessionBody } from "./support/checkout-sessions";
import { enrolWithLink } from "./support/enrolment";
import { STAND_IN_KEYS, startProductionPath, type ProductionPath } from "./support/production-path";
import { aCustomer } from "./support/test-data";
import { getAdminMessages } from "@/lib/i18n/admin-messages";

/**
 * A real agency onboarded and paid, from an empty PostgreSQL database, with no SQL and no seed
 * (docs/going-live.md): the production build against the financing API's stand-in over TLS
 * (e2e/support/production-path.ts). The first operator comes from the command line; everything
 * after it is done in the product, by whoever does it in production: the operator creates the
 * partner with its live key, issues its API secret and invites its administrator; the administrator
 * sets the notification URL and invites an agent without the refund permission; the partner's
 * backend opens a session; the customer pays at the provider; the signed notification reaches the
 * partner; the agent sees the operation and cannot refund; the administrator refunds; the audit log
 * names who did each step; a dump of the app's database holds none of the customer's identity or
 * contact data (sealed at rest). Then what must be refused at once: a revoked secret, a disabled member's
 * open session, another partner's secret on this partner's session.
 *
 * Needs PostgreSQL (TEST_DATABASE_URL, or the machine's own server): without one it fails, saying why.
 */
test.describe.configure({ mode: "serial", timeout: 300_000 });

const PORTS = { sandbox: APP_PORT + 38, app: APP_PORT + 39 };
const en = getAdminMessages("en");
const stamp = randomUUID().slice(0, 8);

interface Person {
  email: string;
  name: string;
  password: string;
  totpSecret: string;
}

let path: ProductionPath | undefined;
const operator: Person = { email: `ops-${stamp}@platform.example`, name: "Olga Operadora", password: "", totpSecret: "" };
const admin: Person = { email: `admin-${stamp}@agencia-sur.example`, name: "Alba Admin", password: "", totpSecret: "" };
const agent: Person = { email: `agent-${stamp}@agencia-sur.example`, name: "Andrés Agente", password: "", totpSecret: "" };
const partner = { id: `agencia-sur-${stamp}`, name: "Agencia Sur", origin: "https://reservas.agencia-sur.example" };
let apiSecret = "";
let sessionId = "";
const reference = `SUR-${stamp}`;
/** The paying customer: details of their own, so that a dump can be searched for them. */
const dni = randomInt(10_000_000, 99_999_999);
const customer = aCustomer({
  email: `cliente-${stamp}@correo.example`,
  phone: `6${randomInt(10_000_000, 99_999_999)}`,
  documentId: `${dni}${"TRWAGMYFPDXBNJZSQVHLCKE"[dni % 23]}`,
  birthDate: "1977-11-23",
});

const started = (): ProductionPath => {
  if (!path) throw new Error("the production path did not start");
  return path;
};

/** A browser of its own for each person, on the app, trusting what its users' browsers would. */
async function browserOf(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  // The stand-in's hosted pages carry a certificate of the run's CA, which the app trusts by setting;
  // a customer's browser would trust the real provider's.
  const context = await browser.newContext({ baseURL: started().appUrl, locale: "en-GB", ignoreHTTPSErrors: true });
  return { context, page: await context.newPage() };
}

function account(person: Person): StaffAccount {
  return { ...person, partner: partner.name, reuseSession: false } as unknown as StaffAccount;
}

const api = (secret: string, pathname: string, init: RequestInit = {}) =>
  fetch(`${started().appUrl}${pathname}`, {
    ...init,
    headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json", ...(init.headers ?? {}) },
  });

test.describe("going live: a partner onboarded and paid on an empty PostgreSQL, with no SQL", () => {
  test.beforeAll(async () => {
    test.setTimeout(240_000);
    const database = await findTestDatabase(process.env);
    // The production path is proven on PostgreSQL or not at all: a machine without one fails, saying why.
    if (database.url === undefined) throw new Error(`PostgreSQL is needed: ${database.reason}`);
    path = await startProductionPath({ ports: PORTS, postgresUrl: database.url });
  });

  test.afterAll(async () => {
    await path?.stop();
  });

  test("the operator is bootstrapped from the command line, then creates the partner, its key and its API secret", async ({ browser }) => {
    const { runScript, partnerEndpoint } = started();
    const created = await runScript(["scripts/admin.ts", "create-operator", "--email", operator.email, "--name", operator.name]);
    expect(created.code, created.stderr).toBe(0);
    const link = created.stdout.trim().split("\n").at(-1)!;
    expect(link).toMatch(/\/admin\/login\/link\/[A-Za-z0-9_-]{43}$/);

    const { context, page } = await browserOf(browser);
    Object.assign(operator, await enrolWithLink(page, en, link));
    const console = new PartnersConsole(page, "en");
    await console.create(partner.id, partner.name);
    await console.saveSettings({ origins: partner.origin, returnUrl: `${partner.origin}/done` });

    // A live key the financing API does not know: refused with the API's own reason, nothing saved.
    await console.submitKey("agency", "fk_live_not_a_key_of_this_agency");
    await expect(console.credential).toContainText("Invalid API key");
    await console.submitKey("agency", STAND_IN_KEYS.agency101);
    await expect(console.credential).toContainText(STAND_IN_KEYS.agency101.slice(-4));
    await expect(console.credential).not.toContainText(STAND_IN_KEYS.agency101);

    apiSecret = await console.secrets.create("Booking backend");
    expect(apiSecret).toMatch(/^cs_live_/);
    expect(partnerEndpoint.url).toMatch(/^https:\/\/127\.0\.0\.1:/);
    await context.close();
  });

  test("the operator invites the partner's administrator, who sets the notifications and invites an agent without refunds", async ({
    browser,
  }) => {
    const { partnerEndpoint } = started();
    const operatorBrowser = await browserOf(browser);
    const back = new Backoffice(operatorBrowser.page, "en");
    await back.login.goto("/operator/partners");
    await back.login.signIn(operator);
    const console = new PartnersConsole(operatorBrowser.page, "en");
    await operatorBrowser.page.goto(`/operator/partners/${partner.id}`);
    const adminLink = await console.inviteAdmin(admin.email, admin.name);
    await operatorBrowser.context.close();

    const { context, page } = await browserOf(browser);
    Object.assign(admin, await enrolWithLink(page, en, adminLink));
    const office = new Backoffice(page, "en");
    await office.notifications.goto();
    await office.notifications.setUrl(partnerEndpoint.url);
    partnerEndpoint.trust(await office.notifications.rotate());

    const staff = new StaffPages(page, "en");
    await staff.goto();
    const agentLink = await staff.inviteByLink({ email: agent.email, name: agent.name, role: "agent", canRefund: false });
    await context.close();

    const agentBrowser = await browserOf(browser);
    Object.assign(agent, await enrolWithLink(agentBrowser.page, en, agentLink));
    await agentBrowser.context.close();
  });

  test("the partner's backend opens a session, the customer pays, and the signed notification reaches the partner", async ({ browser }) => {
    const { partnerEndpoint } = started();
    const body = checkoutSessionBody({ reference, customer: null, returnUrl: `${partner.origin}/done`, locale: "en" });
    const opened = await api(apiSecret, "/api/checkout-sessions", { method: "POST", body: JSON.stringify(body) });
    const session = (await opened.json()) as { id: string; url: string };
    expect(opened.status, JSON.stringify(session)).toBe(201);
    sessionId = session.id;

    const { context, page } = await browserOf(browser);
    const checkout = new CheckoutPages(page, "en");
    await page.goto(session.url);
    await checkout.details.fill(customer);
    await checkout.details.submit();
    await checkout.offers.chooseButtons.first().click();
    await expect(checkout.provider.signButton).toBeVisible();
    expect(new URL(page.url()).origin, "the provider's page is the stand-in's, on its public origin").toBe(started().standInOrigin);
    await checkout.provider.sign();
    await context.close();

    const notified = await partnerEndpoint.waitFor(
      (payload) => JSON.stringify(payload).includes(sessionId) && JSON.stringify(payload).includes("confirmed"),
      90_000,
    );
    expect(JSON.stringify(notified)).toContain(reference);
  });

  test("a dump of the app's database holds none of the customer's document number, birth date, phone or e-mail", async () => {
    // What an operator's backup holds: the app's whole database (the stand-in's is the lender's, apart).
    const { stdout: dump } = await promisify(execFile)("pg_dump", ["--no-owner", started().databaseUrl], { maxBuffer: 256 * 1024 * 1024 });
    expect(dump, "the dump has the session").toContain(sessionId);
    expect(dump, "and the sealed customer data").toMatch(/enc:v1:/);
    for (const [what, value] of Object.entries({
      "document number": customer.documentId,
      "birth date": customer.birthDate,
      phone: customer.phone,
      "e-mail": customer.email,
    })) {
      expect(dump.includes(value), `the customer's ${what} is in the dump`).toBe(false);
    }
  });

  test("the agent sees the operation and cannot refund it; the administrator refunds; the audit log names each step's author", async ({
    browser,
  }) => {
    const agentBrowser = await browserOf(browser);
    const asAgent = new Backoffice(agentBrowser.page, "en");
    await asAgent.signIn(account(agent));
    await asAgent.openByReference(reference);
    await expect(agentBrowser.page.getByText(asAgent.m.operation.refundNotAllowed)).toBeVisible();
    await expect(asAgent.operation.refundLink).toHaveCount(0);
    // Not by the page's link, nor by its address.
    const operationPath = new URL(agentBrowser.page.url()).pathname;
    expect(operationPath).toMatch(/^\/admin\/operations\/[^/]+$/);
    const refused = await agentBrowser.page.goto(`${operationPath}/refund`);
    expect(refused?.status()).toBe(403);

    const adminBrowser = await browserOf(browser);
    const asAdmin = new Backoffice(adminBrowser.page, "en");
    await asAdmin.signIn(account(admin));
    await asAdmin.openByReference(reference);
    await asAdmin.operation.refundLink.click();
    await asAdmin.refund.review.click();
    await asAdmin.refund.confirm.click();
    await expect(asAdmin.refund.stepHeading).toHaveText(asAdmin.m.refundForm.doneTitle);

    const audit = new AuditPage(adminBrowser.page, asAdmin.m);
    await audit.goto();
    for (const who of [operator.name, admin.name, agent.name]) await expect(audit.rowsWith(who).first()).toBeVisible();
    await expect(audit.rowsWith(admin.name).filter({ hasText: asAdmin.m.audit.kinds.operation_refunded }).first()).toBeVisible();
    await expect(audit.rowsWith(operator.name).filter({ hasText: asAdmin.m.audit.kinds.partner_created }).first()).toBeVisible();
    await adminBrowser.context.close();

    // The agent, disabled by the administrator, is out at once: the next page is the sign-in.
    const adminAgain = await browserOf(browser);
    const office = new Backoffice(adminAgain.page, "en");
    await office.signIn(account(admin));
    const staff = new StaffPages(adminAgain.page, "en");
    await staff.goto();
    await staff.manage(agent.name);
    await staff.disable.click();
    await adminAgain.context.close();
    await agentBrowser.page.goto("/admin/operations");
    await expect(agentBrowser.page).toHaveURL(/\/admin\/login/);
    await agentBrowser.context.close();
  });

  test("a revoked secret is refused at once, and another partner's secret finds nothing of this partner", async ({ browser }) => {
    expect((await api(apiSecret, `/api/checkout-sessions/${sessionId}`)).status).toBe(200);

    const { context, page } = await browserOf(browser);
    const back = new Backoffice(page, "en");
    await back.login.goto("/operator/partners");
    await back.login.signIn(operator);
    const console = new PartnersConsole(page, "en");
    await console.create(`otra-agencia-${stamp}`, "Otra Agencia");
    const otherSecret = await console.secrets.create("Other backend");
    const otherRead = await api(otherSecret, `/api/checkout-sessions/${sessionId}`);
    expect(otherRead.status, "another partner's session does not exist for this secret").toBe(404);

    await page.goto(`/operator/partners/${partner.id}`);
    await console.secrets.revokeAll("Booking backend");
    await context.close();
    const revoked = await api(apiSecret, `/api/checkout-sessions/${sessionId}`);
    expect(revoked.status).toBe(401);
  });
});
