import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "./fixtures";
import { Backoffice } from "./pages/admin/backoffice";
import { AuditPage, EnrolmentLinkPages, SecurityPages } from "./pages/admin/security-pages";
import { codeAt } from "./pages/admin/sign-in-page";
import { APP_PORT, APP_URL, STAFF } from "./support/app";
import { SERVER_ARGS, startProcess, waitUntilOk, type Instance } from "./support/instances";
import { expectNoAxeViolations } from "./support/axe";
import { cents } from "./support/text";

/*
 * The back-office's security as an attacker would try it: a password alone opens
 * nothing that moves money, a used code does not work twice, X-Forwarded-For does not reset the
 * sign-in limit, a password change and "sign out everywhere else" end the other sessions, and the
 * audit log says who cancelled and refunded what. The tests that end sessions or change the
 * password use the `sessions` demo account, which no other spec uses, and the other sign-ins the
 * `security` one (a TOTP code works once per account: on one account, these sign-ins waited
 * for new codes); they run one after another.
 */

test.use({ baseURL: APP_URL, locale: "en-GB" });
test.describe.configure({ mode: "serial" });

test("sign-in asks for the TOTP code after the password: a wrong code and a used code are refused", async ({ page, admin, browser }) => {
  test.setTimeout(180_000);
  const { login, m } = admin;
  await login.goto("/admin/operations");
  await login.signInPasswordOnly(STAFF.security);
  await expect(page).toHaveURL(/\/admin\/login\/code\?next=%2Fadmin%2Foperations$/);
  await expect(login.heading).toHaveText(m.secondFactor.title);
  // Waiting for the code, the session opens nothing.
  await page.goto("/admin/operations");
  await expect(page).toHaveURL(/\/admin\/login\/code/);

  await expectNoAxeViolations(page, "the second step");
  expect(await login.sendCode("000000")).toBe(false);
  await expect(login.codeError).toContainText(m.secondFactor.errors.invalid);
  await expectNoAxeViolations(page, "the second step with an error");
  // The code of the next step (accepted, one step ahead for a slow clock), so that it is still
  // inside the window when it is replayed below; if that step was used already, the next one.
  let used = "";
  for (let round = 0; round < 3 && !used; round++) {
    if (round > 0) await page.waitForTimeout(30_000 - (Date.now() % 30_000) + 1000);
    const code = await codeAt(STAFF.security.totpSecret, Date.now() + 30_000);
    if (await login.sendCode(code)) used = code;
  }
  expect(used).not.toBe("");
  await expect(page).toHaveURL(`${APP_URL}/admin/operations`);

  // A `next` no Location header can carry (CR/LF, a character above U+00FF): refused (400) or sent
  // to the safe default, never a 500 and never that target.
  for (const next of ["/admin/operations\r\nSet-Cookie: x=1", "/admin/operations/\u0100", "/admin/😀"]) {
    const response = await page.request.get(`/admin/login/code?next=${encodeURIComponent(next)}`, { maxRedirects: 0 });
    if (response.status() === 400) continue;
    expect(response.status(), JSON.stringify(next)).toBeLessThan(400);
    expect(response.headers().location, JSON.stringify(next)).toBe("/admin");
  }

  // The same code again, from another browser with the right password: refused as used.
  const other = await browser.newContext({ baseURL: APP_URL, locale: "en-GB" });
  try {
    const second = new Backoffice(await other.newPage(), "en");
    await second.login.goto();
    await second.login.signInPasswordOnly(STAFF.security);
    expect(await second.login.sendCode(used)).toBe(false);
    await expect(second.login.codeError).toContainText(m.secondFactor.errors.replayed);
  } finally {
    await other.close();
  }
});

test("a refund needs the second factor: without it the refund page leads away and nothing moves", async ({
  page,
  admin,
  sandbox,
  browser,
}) => {
  test.setTimeout(120_000);
  const op = await sandbox.createOperation();
  await sandbox.confirm(op.id);
  const refundPage = `/admin/operations/${op.id}/refund`;

  // Not enrolled: the right password opens nothing, and says an enrolment link is needed.
  await admin.login.goto(refundPage);
  await admin.login.signInPasswordOnly(STAFF.unenrolled);
  await expect(admin.login.error).toContainText(admin.m.loginForm.enrolment_link_needed);
  await expectNoAxeViolations(page, "a sign-in that needs an enrolment link");
  for (const target of [refundPage, `/admin/operations/${op.id}`, "/admin/operations", "/admin/security/two-factor"]) {
    await page.goto(target);
    await admin.login.expectShown();
  }

  // Enrolled but the code not given yet: the second step, not the refund.
  const other = await browser.newContext({ baseURL: APP_URL, locale: "en-GB" });
  try {
    const pending = new Backoffice(await other.newPage(), "en");
    await pending.login.goto();
    await pending.login.signInPasswordOnly(STAFF.security);
    await pending.page.goto(refundPage);
    await expect(pending.page).toHaveURL(/\/admin\/login\/code\?next=/);
    await expect(pending.refund.review).toHaveCount(0);
  } finally {
    await other.close();
  }
  expect(await sandbox.status(op.id)).toBe("CONFIRMED");
});

test("X-Forwarded-For does not open a new bucket, and a forged socket-address header is ignored", async ({ page, admin, browser }) => {
  test.setTimeout(180_000);
  const { login, m } = admin;
  const email = `nobody-${randomUUID().slice(0, 8)}@viajes-aurora.example`;
  await login.goto();
  // Four wrong passwords are answered "invalid", then the account's bucket is empty whatever
  // address the client claims: "locked". Each answer is awaited as rendered (the previous one stays
  // on screen until React replaces it, so reading the text at once could read the old answer).
  for (let attempt = 1; attempt <= 7; attempt++) {
    // A new address per request, as an attacker rotating X-Forwarded-For would claim.
    await page.setExtraHTTPHeaders({ "X-Forwarded-For": `198.18.0.${attempt}`, "X-TFC-Socket-Address": `198.19.0.${attempt}` });
    await login.signIn({ email, password: `guess-${attempt}` });
    await expect(login.error, `attempt ${attempt}`).toContainText(attempt <= 4 ? m.loginForm.invalid : m.loginForm.locked);
  }

  // The audit log records the socket's address, not what the client claimed.
  await page.setExtraHTTPHeaders({ "X-Forwarded-For": "6.6.6.6", "X-TFC-Socket-Address": "6.6.6.7" });
  await login.signIn({ email: STAFF.security.email, password: "not-the-password" });
  await expect(login.error).toContainText(m.loginForm.invalid);
  const context = await browser.newContext({ baseURL: APP_URL, locale: "en-GB" });
  try {
    const staff = new Backoffice(await context.newPage(), "en");
    await staff.signIn(STAFF.security);
    const audit = new AuditPage(staff.page, staff.m);
    await audit.goto({ kind: "sign_in_failed" });
    const row = audit.rowsWith(STAFF.security.name).first();
    // The loopback the browser connected from (IPv4 or IPv6, as the system resolves the host).
    await expect(row).toContainText(/127\.0\.0\.1|::1/);
    await expect(audit.table).not.toContainText("6.6.6.");
  } finally {
    await context.close();
  }
});

test("a password change ends the sessions of other browsers", async ({ page, admin, browser }) => {
  test.setTimeout(180_000);
  const other = await browser.newContext({ baseURL: APP_URL, locale: "en-GB" });
  try {
    const elsewhere = new Backoffice(await other.newPage(), "en");
    await elsewhere.signIn(STAFF.sessions);
    await admin.signIn(STAFF.sessions);

    const security = new SecurityPages(page, admin.m);
    const changed = `changed-${randomUUID()}`;
    await page.goto("/admin/security/password");
    await expectNoAxeViolations(page, "the password change");
    await security.changePassword(STAFF.sessions.password, changed);
    // Two scrypt hashes (the current password checked, the new one made): seconds on a busy machine.
    await expect(page).toHaveURL(/\/admin\/security\?password=changed/, { timeout: 20_000 });
    // Every other session of the account ended (this spec's earlier tests leave some open too).
    await expect(page.getByText(/^Password changed\. \d+ sessions? open elsewhere (was|were) signed out\.$/)).toBeVisible();

    await elsewhere.page.goto("/admin");
    await elsewhere.login.expectShown();
    // This browser stays signed in, and puts the demo password back.
    await security.changePassword(changed, STAFF.sessions.password);
    await expect(page).toHaveURL(/\/admin\/security\?password=changed/, { timeout: 20_000 });
  } finally {
    await other.close();
  }
});

test("sign out everywhere else ends the other sessions and keeps this one", async ({ page, admin, browser }) => {
  test.setTimeout(180_000);
  const other = await browser.newContext({ baseURL: APP_URL, locale: "en-GB" });
  try {
    const elsewhere = new Backoffice(await other.newPage(), "en");
    await elsewhere.signIn(STAFF.sessions);
    await admin.signIn(STAFF.sessions);
    const security = new SecurityPages(page, admin.m);
    await security.goto();
    await expectNoAxeViolations(page, "the security page");
    // The header, this session, the other browser's (and any an earlier test left open).
    expect(await security.sessions.getByRole("row").count()).toBeGreaterThanOrEqual(3);
    await expect(security.sessions).toContainText(admin.m.security.thisSession);
    await expect(security.sessions).toContainText(/127\.0\.0\.1|::1/);

    await security.signOutOthers.click();
    await expect(page.getByText(/^\d+ sessions? (was|were) signed out\.$/)).toBeVisible();
    await expect(security.sessions.getByRole("row")).toHaveCount(2);

    await elsewhere.page.goto("/admin/operations");
    await elsewhere.login.expectShown();
    await page.goto("/admin/operations");
    await expect(admin.operations.heading).toBeVisible();
  } finally {
    await other.close();
  }
});

test("the audit log shows the cancel and the refund: who, which operation, how much", async ({ page, admin, sandbox }) => {
  test.setTimeout(180_000);
  const cancelled = await sandbox.createOperation();
  const refunded = await sandbox.createOperation();
  await sandbox.confirm(refunded.id);
  const details = await sandbox.refundDetails(refunded.id);

  await admin.signIn(STAFF.security);
  await admin.openByReference(cancelled.externalId);
  await admin.operation.cancel("Customer asked by phone");
  await admin.operation.expectStatus("CANCELLED");

  await admin.openByReference(refunded.externalId);
  await admin.operation.refundLink.click();
  await admin.refund.agencyFee.fill("10");
  await admin.refund.review.click();
  await admin.refund.confirm.click();
  await expect(admin.refund.stepHeading).toHaveText(admin.m.refundForm.doneTitle);
  const total = cents(details.totalToRefund.amount) - 1000;

  const audit = new AuditPage(page, admin.m);
  await audit.goto({ kind: "operation_refunded" });
  await expectNoAxeViolations(page, "the audit log");
  const refundRow = audit.rowsWith(refunded.id);
  await expect(refundRow).toHaveCount(1);
  await expect(refundRow).toContainText(STAFF.security.name);
  await expect(refundRow).toContainText(admin.m.audit.results.ok);
  await expect(refundRow).toContainText(admin.m.audit.refundDetails(admin.money(total), admin.money(1000)));
  await expect(audit.table).not.toContainText(cancelled.id);

  // A refund the provider rejects moved no money: the row says what was asked, not "refunded".
  const rejected = await sandbox.createOperation({ email: "ana+refund_reject@example.com" });
  await sandbox.confirm(rejected.id);
  const rejectedTotal = cents((await sandbox.refundDetails(rejected.id)).totalToRefund.amount) - 1000;
  await admin.openByReference(rejected.externalId);
  await admin.operation.refundLink.click();
  await admin.refund.agencyFee.fill("10");
  await admin.refund.review.click();
  await admin.refund.confirm.click();
  await expect(admin.refund.stepHeading).toHaveText(admin.m.refundForm.rejectedTitle);
  await audit.goto({ kind: "operation_refunded" });
  const rejectedRow = audit.rowsWith(rejected.id);
  await expect(rejectedRow).toContainText(admin.m.audit.results.failed);
  await expect(rejectedRow).toContainText(admin.m.audit.refundAskedDetails(admin.money(rejectedTotal), admin.money(1000)));
  await expect(rejectedRow).not.toContainText(admin.m.audit.refundDetails(admin.money(rejectedTotal), admin.money(1000)));

  await audit.goto({ kind: "operation_cancelled" });
  const cancelRow = audit.rowsWith(cancelled.id);
  await expect(cancelRow).toHaveCount(1);
  await expect(cancelRow).toContainText(STAFF.security.name);
  await expect(cancelRow).toContainText(admin.m.audit.kinds.operation_cancelled);
});

test.describe("first enrolment through a one-time link", () => {
  // Its own app on its own data: the command opens the PGlite folder, which only a stopped server lets go.
  const port = APP_PORT + 6;
  const base = `http://localhost:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "travel-checkout-enrolment-"));
  const env = { PORT: String(port), DATA_DIR: dataDir };
  let app: Instance | undefined;
  const start = async () => {
    app = startProcess("app", SERVER_ARGS, env, port);
    await waitUntilOk(`http://127.0.0.1:${port}/api/health`, { instance: app });
  };
  const runAdmin = (...args: string[]) =>
    promisify(execFile)("npm", ["run", "-s", "admin", "--", ...args], { env: { ...process.env, ...env, APP_URL: base } });

  test.afterAll(async () => {
    await app?.stop("SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  });

  test("the operator's link sets the password and the second factor once; the password alone never did", async ({ browser }) => {
    test.setTimeout(240_000);
    await start();
    // While the server runs, the command says why it cannot open the database.
    const refused = await runAdmin("enrolment-link", "--email", STAFF.unenrolled.email).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining("stop the server first") });
    await app?.stop("SIGTERM");
    const { stdout } = await runAdmin("enrolment-link", "--email", STAFF.unenrolled.email);
    const link = stdout.trim();
    expect(link).toMatch(new RegExp(`^${base}/admin/login/link/[A-Za-z0-9_-]{43}$`));
    await start();

    const context = await browser.newContext({ baseURL: base, locale: "en-GB" });
    try {
      const staff = new Backoffice(await context.newPage(), "en");
      const pages = new EnrolmentLinkPages(staff.page, staff.m);
      await staff.page.goto(link);
      await expect(pages.heading).toHaveText(staff.m.security.linkTitle);
      await expectNoAxeViolations(staff.page, "the enrolment link");
      await pages.start.click();
      await expect(staff.page).toHaveURL(/\/admin\/security\/two-factor$/);
      await expect(pages.qr).toBeVisible();
      // Only enrolment until it is done.
      await staff.page.goto("/admin/operations");
      await expect(staff.page).toHaveURL(/\/admin\/security\/two-factor$/);
      await expectNoAxeViolations(staff.page, "enrolment with a password");

      const secret = await pages.shownSecret();
      const password = `enrolled-${randomUUID()}`;
      await pages.password.fill(password);
      await pages.confirm.fill(password);
      await pages.code.fill(await codeAt(secret, Date.now()));
      await pages.activate.click();
      await expect(pages.recoveryTitle).toBeVisible();
      await staff.page.goto("/admin/operations");
      await expect(staff.operations.heading).toBeVisible();

      // Used: the link opens nothing a second time.
      const again = await browser.newContext({ baseURL: base, locale: "en-GB" });
      try {
        const other = new EnrolmentLinkPages(await again.newPage(), staff.m);
        await other.page.goto(link);
        await expect(other.invalid).toBeVisible();
        await expect(other.start).toHaveCount(0);
      } finally {
        await again.close();
      }
    } finally {
      await context.close();
    }
  });
});
