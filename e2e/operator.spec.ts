import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { expect, test } from "./fixtures";
import { Backoffice } from "./pages/admin/backoffice";
import { StaffPages } from "./pages/admin/staff-pages";
import { OperatorConsole } from "./pages/operator/console";
import { APP_PORT, STAFF } from "./support/app";
import { expectNoAxeViolations } from "./support/axe";
import { enrolHere, enrolWithLink, startFromLink } from "./support/enrolment";
import { SERVER_ARGS, startProcess, waitUntilOk, type Instance } from "./support/instances";
import { STAFF_MESSAGES } from "@/lib/i18n/staff-messages";

/*
 * Going live without SQL, on an app of its own (its own empty database, a mail server this test
 * runs on loopback): the command creates the first operator and prints a one-time link (the
 * database is PGlite's, which only a stopped server lets go); the operator sets a password and a
 * second factor there and lands in their console, never in a partner's back-office; a partner's
 * staff get "not found" there. Then what needs e-mail: "forgot your password" (the same answer
 * for any address, a link for the account only) and an administrator's invitation by e-mail.
 */
test.describe.configure({ mode: "serial", timeout: 240_000 });

const port = APP_PORT + 7;
const base = `http://localhost:${port}`;
const dataDir = mkdtempSync(path.join(os.tmpdir(), "travel-checkout-operator-"));
const env = { PORT: String(port), DATA_DIR: dataDir };
const operator = { email: `ops-${randomUUID().slice(0, 8)}@platform.example`, name: "Olga Operadora", password: "", totpSecret: "" };
const s = STAFF_MESSAGES.en;

test.use({ baseURL: base, locale: "en-GB" });

let app: Instance | undefined;
let smtp: SMTPServer | undefined;
let link = "";
const received: ParsedMail[] = [];

const runAdmin = (...args: string[]) =>
  promisify(execFile)("npm", ["run", "-s", "admin", "--", ...args], { env: { ...process.env, ...env, APP_URL: base } });

/** The one-time link in the last e-mail to `to`, once it has arrived. */
async function linkMailedTo(to: string, count: number): Promise<string> {
  await expect
    .poll(() => received.filter((mail) => mail.to && JSON.stringify(mail.to).includes(to)).length, { timeout: 20_000 })
    .toBe(count);
  const mail = received.filter((m) => JSON.stringify(m.to).includes(to)).at(-1)!;
  const found = new RegExp(`${base}/admin/login/(link|reset)/[A-Za-z0-9_-]{43}`).exec(mail.text ?? "");
  expect(found, mail.text).not.toBeNull();
  return found![0];
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  // An empty database: the command migrates it and creates the operator. No password anywhere.
  const { stdout, stderr } = await runAdmin("create-operator", "--email", operator.email, "--name", operator.name);
  link = stdout.trim();
  expect(link).toMatch(new RegExp(`^${base}/admin/login/link/[A-Za-z0-9_-]{43}$`));
  expect(stderr).toContain("30 minutes");
  expect((await runAdmin("list-operators")).stdout).toContain(`${operator.email}\t${operator.name}\tenrolment pending`);

  smtp = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => smtp!.listen(0, "127.0.0.1", resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  app = startProcess(
    "app",
    SERVER_ARGS,
    { ...env, SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, SMTP_FROM: "no-reply@platform.example" },
    port,
  );
  await waitUntilOk(`http://127.0.0.1:${port}/api/health`, { instance: app, timeoutMs: 180_000 });
});

test.afterAll(async () => {
  await app?.stop("SIGTERM");
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  rmSync(dataDir, { recursive: true, force: true });
});

test("the first operator enrols with the command's link and works in their own console, never a partner's", async ({ page, admin }) => {
  const operatorConsole = new OperatorConsole(page, "en");
  await startFromLink(page, admin.m, link);
  // Nothing but enrolment until it is done: the console leads back to it.
  await page.goto("/operator");
  await expect(page).toHaveURL(/\/admin\/security\/two-factor$/);
  Object.assign(operator, await enrolHere(page, admin.m));
  await page.getByRole("link", { name: admin.m.security.enrolForm.continueLabel }).click();
  await operatorConsole.expectHome(operator.name);
  await expect(operatorConsole.partnersLink).toHaveAttribute("href", "/operator/partners");
  await expectNoAxeViolations(page, "the operator's console");

  // A partner's pages are not the operator's: they lead back to the console.
  for (const target of ["/admin", "/admin/operations", "/admin/staff", "/admin/security"]) {
    await page.goto(target);
    await expect(page, target).toHaveURL(/\/operator$/);
  }

  // Signed out and in again like anyone: the password, then the code; the console again.
  await page.getByRole("button", { name: admin.m.common.signOut }).click();
  await admin.login.expectShown();
  // The console sends a signed-out operator to the shared sign-in, titled for operators.
  await page.goto("/operator");
  await expect(admin.login.heading).toHaveText(admin.m.login.operatorTitle);
  await admin.login.signIn(operator);
  await operatorConsole.expectHome(operator.name);
  // An address the console does not have: its 404, in its own frame.
  expect((await page.goto("/operator/no-such-page"))?.status()).toBe(404);
  await expect(operatorConsole.heading).toHaveText(admin.m.common.refusals.notFound.title);
  await expect(operatorConsole.banner).toContainText(operatorConsole.m.common.signedInAs(operator.name));
  // With the server running, the command cannot open its PGlite folder, and says why.
  const refused = await runAdmin("list-operators").catch((error: { code: number; stderr: string }) => error);
  expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining("stop the server first") });
});

test("a partner's staff member gets 'not found' in the console", async ({ page, admin }) => {
  await admin.login.goto();
  await admin.login.signIn(STAFF.security);
  await expect(page).toHaveURL(/\/admin$/);
  expect((await page.goto("/operator"))?.status()).toBe(404);
});

test("forgot password: the same answer for any address; the account's link sets a new password once", async ({ page, admin }) => {
  const ask = async (email: string) => {
    await page.goto("/admin/login");
    await page.getByRole("link", { name: s.forgot.link }).click();
    // The page itself, not the one before it still on screen while the link is followed.
    await expect(page).toHaveURL(/\/admin\/login\/forgot$/);
    await expect(page.getByText(s.forgot.accepted)).toHaveCount(0);
    await page.getByLabel(s.forgot.email, { exact: true }).fill(email);
    await page.getByRole("button", { name: s.forgot.submit }).click();
    await expect(page.getByText(s.forgot.accepted)).toBeVisible();
  };
  await ask(`nobody-${randomUUID().slice(0, 8)}@platform.example`);
  await expectNoAxeViolations(page, "a password reset asked for");
  await ask(operator.email);
  const resetLink = await linkMailedTo(operator.email, 1);
  expect(resetLink).toContain("/admin/login/reset/");
  // Only the account got an e-mail.
  expect(received).toHaveLength(1);

  await page.goto(resetLink);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(s.reset.title);
  await expectNoAxeViolations(page, "choosing a new password");
  const password = `reset-${randomUUID()}`;
  await page.getByLabel(s.reset.password, { exact: true }).fill(password);
  await page.getByLabel(s.reset.confirm, { exact: true }).fill(password);
  await page.getByRole("button", { name: s.reset.form.submit }).click();
  await expect(page.getByText(s.reset.done)).toBeVisible();
  operator.password = password;
  await admin.login.signIn(operator);
  await expect(page).toHaveURL(/\/operator$/);
  // Used: the link opens nothing again.
  await page.goto(resetLink);
  await expect(page.getByText(s.reset.invalid)).toBeVisible();
});

test("an administrator invites by e-mail; the invitee sets up their access from the message", async ({ page, admin, browser }) => {
  await admin.login.goto();
  await admin.login.signIn(STAFF.aurora);
  const staff = new StaffPages(page, "en");
  await staff.goto();
  const person = { email: `mailed-${randomUUID().slice(0, 8)}@viajes-aurora.example`, name: `Mailed ${randomUUID().slice(0, 6)}` };
  await staff.email.fill(person.email);
  await staff.name.fill(person.name);
  await page.getByRole("radio", { name: s.inviteForm.deliveryEmail }).check();
  await staff.invite.click();
  await expect(staff.invitation).toContainText(s.inviteForm.sentTitle);
  // Sent, not shown: the link is in the mailbox only.
  await expect(staff.invitationLink).toHaveCount(0);
  const invitation = await linkMailedTo(person.email, 1);
  const mail = received.at(-1)!;
  expect(mail.subject).toContain("Viajes Aurora (demo)");

  const context = await browser.newContext({ baseURL: base, locale: "en-GB" });
  try {
    const invitee = new Backoffice(await context.newPage(), "en");
    await enrolWithLink(invitee.page, invitee.m, invitation);
    await invitee.page.goto("/admin/operations");
    await expect(invitee.operations.heading).toBeVisible();
    await expect(invitee.shell.section("staff")).toHaveCount(0);
  } finally {
    await context.close();
  }
});
