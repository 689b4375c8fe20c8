import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { Backoffice, signedInContext } from "./pages/admin/backoffice";
import { AuditPage } from "./pages/admin/security-pages";
import { StaffPages } from "./pages/admin/staff-pages";
import { APP_URL, STAFF } from "./support/app";
import { expectNoAxeViolations } from "./support/axe";
import { enrolWithLink } from "./support/enrolment";

/*
 * Roles and a partner's staff, as the browser meets them: an agent sees operations but no
 * administrator's page, and cannot refund by the page, its URL or a link; an administrator invites
 * someone with a one-time link, who sets up their own access, is disabled (their open session ends
 * at once) and removed; resetting another administrator's second factor waits for a second
 * administrator's confirmation; another partner's administrator finds none of it. The agent is the demo's
 * `agente@` (no refund permission); the invited people are new each run.
 */

test.use({ baseURL: APP_URL, locale: "en-GB" });

test("an agent works on operations, sees no administrator's page, and cannot refund by the page or its URL", async ({
  page,
  admin,
  sandbox,
  browser,
}) => {
  test.setTimeout(120_000);
  const op = await sandbox.createOperation();
  await sandbox.confirm(op.id);

  await admin.signIn(STAFF.agent);
  await expect(admin.shell.section("operations")).toBeVisible();
  await expect(admin.shell.section("paymentLinks")).toBeVisible();
  for (const section of ["staff", "audit", "notifications", "theme"] as const) {
    await expect(admin.shell.section(section), section).toHaveCount(0);
  }
  // By their URLs too: refused (403), nothing shown, in the back-office's own frame.
  const refused = ["/admin/staff", "/admin/staff/staff_demo_aurora", "/admin/audit", "/admin/notifications", "/admin/theme"];
  for (const path of refused) {
    expect((await page.request.get(path, { maxRedirects: 0 })).status(), path).toBe(403);
  }
  const refusals = admin.m.common.refusals;
  expect((await page.goto("/admin/audit"))?.status()).toBe(403);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(refusals.forbidden.title);
  await expect(admin.shell.banner).toContainText(admin.m.common.signedInAs(STAFF.agent.name));
  await expect(admin.shell.section("operations")).toBeVisible();
  // An address the back-office does not have: its 404, in its frame too, not the checkout's page.
  expect((await page.goto("/admin/no-such-page"))?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(refusals.notFound.title);
  await expect(admin.shell.section("operations")).toBeVisible();
  // The confirmed operation: no way to the refund, and its page refused by URL.
  await page.goto(`/admin/operations/${op.id}`);
  await expect(page.getByText(admin.m.operation.refundNotAllowed)).toBeVisible();
  await expect(page.getByRole("link", { name: admin.m.operation.refundLink })).toHaveCount(0);
  await expectNoAxeViolations(page, "an operation an agent may not refund");
  const refundPage = await page.goto(`/admin/operations/${op.id}/refund`);
  expect(refundPage?.status()).toBe(403);
  await expect(admin.refund.review).toHaveCount(0);
  // Nor is the platform's console any partner staff's.
  expect((await page.request.get("/operator", { maxRedirects: 0 })).status()).toBe(404);
  expect(await sandbox.status(op.id)).toBe("CONFIRMED");

  // Each refused attempt is in the audit log, with the page asked for (docs/going-live.md).
  const lucia = await signedInContext(browser, STAFF.aurora);
  try {
    const audit = new AuditPage(lucia.page, lucia.admin.m);
    await audit.goto({ kind: "permission_refused", staff: "staff_demo_aurora_agent" });
    for (const path of [...refused, `/admin/operations/${op.id}/refund`, "/operator"]) {
      await expect(
        audit
          .rowsWith(STAFF.agent.name)
          .filter({ hasText: audit.m.audit.refusedPage(path) })
          .first(),
        path,
      ).toBeVisible();
    }
  } finally {
    await lucia.close();
  }
});

test("an administrator invites someone by a one-time link; they set up their access; disabled, their session ends; removed, gone", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const lucia = await signedInContext(browser, STAFF.aurora);
  const invitee = await browser.newContext({ baseURL: APP_URL, locale: "en-GB" });
  try {
    const staff = new StaffPages(lucia.page, "en");
    await lucia.admin.shell.section("staff").click();
    await expect(staff.heading).toHaveText(staff.s.staff.title);
    await expect(staff.row(STAFF.agent.name)).toContainText(staff.s.staff.roles.agent);
    await expectNoAxeViolations(lucia.page, "the staff page");

    const person = {
      email: `agent-${randomUUID().slice(0, 8)}@viajes-aurora.example`,
      name: `Agent ${randomUUID().slice(0, 6)}`,
      role: "agent",
      canRefund: false,
    } as const;
    const link = await staff.inviteByLink(person);
    expect(link).toMatch(new RegExp(`^${APP_URL}/admin/login/link/[A-Za-z0-9_-]{43}$`));
    await expect(staff.row(person.name)).toContainText(staff.s.staff.statuses.invited);
    await expectNoAxeViolations(lucia.page, "an invitation's link, shown once");
    // Shown once: the page again shows no link.
    await staff.goto();
    await expect(staff.invitationLink).toHaveCount(0);

    // The invitee sets a password and a second factor with the link, and lands in the back-office.
    const page = await invitee.newPage();
    const member = new Backoffice(page, "en");
    const { password } = await enrolWithLink(page, member.m, link);
    await page.goto("/admin/operations");
    await expect(member.operations.heading).toBeVisible();
    await expect(member.shell.section("staff")).toHaveCount(0);

    // Lucía sees them active, and disables them: their open session ends at once.
    await staff.goto();
    await staff.manage(person.name);
    await expect(staff.status).toHaveText(staff.s.staff.statuses.active);
    await expectNoAxeViolations(lucia.page, "a member's page");
    await staff.disable.click();
    await expect(lucia.page.getByText(staff.s.staff.done.disabled(1))).toBeVisible();
    await page.goto("/admin/operations");
    await member.login.expectShown();
    await member.login.signIn({ email: person.email, password });
    await expect(member.login.error).toContainText(member.m.loginForm.disabled);

    // Removed: gone from the list; the audit log says who did each of these.
    await staff.removeConfirm.check();
    await staff.remove.click();
    await expect(lucia.page).toHaveURL(/\/admin\/staff\?done=removed$/);
    await expect(staff.row(person.name)).toHaveCount(0);
    const audit = new AuditPage(lucia.page, lucia.admin.m);
    for (const kind of ["staff_invited", "staff_disabled", "staff_removed"]) {
      await audit.goto({ kind });
      const row = audit.rowsWith(person.name);
      await expect(row, kind).toHaveCount(1);
      await expect(row, kind).toContainText(STAFF.aurora.name);
    }
  } finally {
    await invitee.close();
    await lucia.close();
  }
});

test("another administrator's second factor is reset only once a second administrator confirms it with their own code", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const lucia = await signedInContext(browser, STAFF.aurora);
  const newcomer = await browser.newContext({ baseURL: APP_URL, locale: "en-GB" });
  let ana: Awaited<ReturnType<typeof signedInContext>> | undefined;
  try {
    // The administrator to reset is new each run, set up with their own link: resetting a demo
    // account would end the sessions other tests sign in with.
    const staff = new StaffPages(lucia.page, "en");
    await staff.goto();
    const id = randomUUID().slice(0, 8);
    const person = { email: `admin-${id}@viajes-aurora.example`, name: `Admin ${id}`, role: "admin", canRefund: false } as const;
    const link = await staff.inviteByLink(person);
    const page = await newcomer.newPage();
    const member = new Backoffice(page, "en");
    await enrolWithLink(page, member.m, link);
    await page.goto("/admin/operations");
    await expect(member.operations.heading).toBeVisible();

    // Lucía asks, with her own code: a request is saved and nothing changes; she cannot confirm it herself.
    await staff.goto();
    await staff.manage(person.name);
    await staff.resetWithOwnCode(staff.resetSubmit, STAFF.aurora.totpSecret);
    await expect(staff.reset).toContainText(staff.s.linkForm.requestedTitle);
    await lucia.page.reload();
    await expect(lucia.page.getByRole("heading", { name: staff.s.member.pendingHeading })).toBeVisible();
    await expect(staff.confirmResetSubmit).toHaveCount(0);
    await expectNoAxeViolations(lucia.page, "a reset waiting for a second administrator");
    await page.goto("/admin/operations");
    await expect(member.operations.heading).toBeVisible();

    // Ana, a second administrator, confirms it with her own code: the reset is done, the
    // newcomer's session ends, and the link is shown to her (this app has no mail server).
    ana = await signedInContext(browser, STAFF.security);
    const second = new StaffPages(ana.page, "en");
    await second.goto();
    await second.manage(person.name);
    await expect(ana.page.getByRole("heading", { name: second.s.member.pendingHeading })).toBeVisible();
    await second.resetWithOwnCode(second.confirmResetSubmit, STAFF.security.totpSecret);
    await expect(second.reset).toContainText(second.s.linkForm.linkTitle);
    await expect(second.reset).toContainText(second.s.linkForm.ended);
    await page.goto("/admin/operations");
    await member.login.expectShown();

    // The audit log names both steps, each by who took it.
    const audit = new AuditPage(lucia.page, lucia.admin.m);
    await audit.goto({ kind: "two_factor_reset" });
    for (const who of [STAFF.aurora.name, STAFF.security.name]) {
      await expect(audit.rowsWith(person.name).filter({ hasText: who }).first(), who).toBeVisible();
    }
    await staff.goto();
    await staff.manage(person.name);
    await staff.removeConfirm.check();
    await staff.remove.click();
    await expect(lucia.page).toHaveURL(/\/admin\/staff\?done=removed$/);
  } finally {
    await ana?.close();
    await newcomer.close();
    await lucia.close();
  }
});

test("another partner's administrator finds none of Viajes Aurora's staff", async ({ page, admin }) => {
  await admin.signIn(STAFF.group);
  const staff = new StaffPages(page, "en");
  await staff.goto();
  await expect(staff.table).not.toContainText(STAFF.aurora.name);
  await expect(staff.table).not.toContainText(STAFF.agent.email);
  for (const id of ["staff_demo_aurora", "staff_demo_aurora_agent"]) {
    expect((await page.request.get(`/admin/staff/${id}`)).status(), id).toBe(404);
  }
});
