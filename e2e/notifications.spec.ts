import type { APIRequestContext } from "@playwright/test";
import { startPartnerEndpoint, verifies } from "@/lib/backoffice/notifications/testing/partner-endpoint";
import { sessionIdHint } from "@/lib/backoffice/common/format";
import { expect, test } from "./fixtures";
import { signedInContext } from "./pages/admin/backoffice";
import { APP_URL, DEMO_PARTNERS, STAFF } from "./support/app";
import { expectNoAxeViolations } from "./support/axe";
import { aBookingReference } from "./support/test-data";

/*
 * The back-office's notification tools (app/admin/notifications): a checkout's notification is
 * listed as delivered; "Resend" delivers it again to the demo partner's backend with the same
 * webhook-id, from the list and from the operation's page; a test notification shows the
 * endpoint's answer; rotating the signing secret shows the new secret once, and what is sent after
 * it verifies with the old and with the new secret.
 * Another partner's staff neither see nor resend Viajes Aurora's notifications.
 */

test.use({ baseURL: APP_URL, locale: "en-GB" });

interface DemoReceived {
  id: string;
  type: string;
  data: { id?: string; test?: boolean };
  deliveries: number;
}

/** What the demo partner's backend (app/api/demo/notifications) received, for one session or all. */
async function demoReceived(request: APIRequestContext, sessionId?: string): Promise<DemoReceived[]> {
  const response = await request.get(`/api/demo/notifications${sessionId ? `?session=${sessionId}` : ""}`, {
    headers: { Authorization: `Bearer ${DEMO_PARTNERS.demo.secret}` },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { notifications: DemoReceived[] }).notifications;
}

test("a checkout's notification is listed, resent with the same webhook-id, and a test notification shows its answer; Grupo Demo's staff cannot see or resend it", async ({
  page,
  admin,
  browser,
  request,
  checkout,
  checkoutSessions,
}) => {
  // Viajes Aurora's checkout: the details create the operation, the session reaches `choosing`, and that is notified.
  const booking = aBookingReference("E2E-NOTE");
  const session = await checkout.detailsSent(checkoutSessions, { reference: booking, locale: "en" });
  const type = "checkout.session.choosing";
  await expect
    .poll(async () => (await demoReceived(request, session.id)).find((n) => n.type === type)?.deliveries ?? 0, { timeout: 30_000 })
    .toBe(1);
  const webhookId = (await demoReceived(request, session.id)).find((n) => n.type === type)!.id;

  await admin.signIn(STAFF.aurora);
  await admin.shell.section("notifications").click();
  const notifications = admin.notifications;
  await expect(notifications.heading).toBeVisible();
  const row = notifications.row(booking, type);
  await expect(row).toHaveCount(1);
  // The session by its first characters only: the whole id opens the customer's checkout.
  await expect(row).toContainText(sessionIdHint(session.id));
  await expect(row).not.toContainText(session.id);
  await expect(row).toContainText("204");
  await expect(row).not.toContainText(notifications.t.pending);
  await expect(row.getByRole("link", { name: booking })).toHaveAttribute("href", /^\/admin\/operations\//);

  // Resend: delivered again, to the same backend, under the same webhook-id (a redelivery).
  await notifications.resendButton(booking, type).click();
  await expect(notifications.resent("delivered")).toBeVisible();
  await expect
    .poll(async () => (await demoReceived(request, session.id)).find((n) => n.id === webhookId)?.deliveries ?? 0, { timeout: 15_000 })
    .toBe(2);
  await expect(notifications.row(booking, type)).toContainText("204");

  // The same from the operation's page (its notifications card): it comes back to that page.
  await notifications.row(booking, type).getByRole("link", { name: booking }).click();
  await admin.operation.expectOperation(booking);
  const operationUrl = page.url();
  await admin.operation.resendButton(type, booking).click();
  await expect(admin.operation.resent("delivered")).toBeVisible();
  expect(page.url().split("?")[0]).toBe(operationUrl.split("?")[0]);
  await expect
    .poll(async () => (await demoReceived(request, session.id)).find((n) => n.id === webhookId)?.deliveries ?? 0, { timeout: 15_000 })
    .toBe(3);
  await expectNoAxeViolations(page, "an operation's page, after resending its notification");
  await notifications.goto();

  // A test notification to the demo partner's backend, which verifies its signature.
  await notifications.sendTest();
  await expect(notifications.testOk(204)).toBeVisible();
  expect((await demoReceived(request)).some((n) => n.type === "notification.test" && n.data.test === true)).toBe(true);
  await expectNoAxeViolations(page, "the notifications page, after a resend and a test notification");

  // Grupo Demo's staff: Aurora's notification is not on their page.
  const grupo = await signedInContext(browser, STAFF.group);
  await grupo.admin.notifications.goto();
  await expect(grupo.page.getByRole("main")).not.toContainText(booking);
  await expect(grupo.page.getByRole("main")).not.toContainText(sessionIdHint(session.id));

  // Nor can they resend it, even by submitting Aurora's own form with their session.
  const [grupoCookie] = (await grupo.page.context().cookies(APP_URL)).filter((cookie) => cookie.name === "staff_session");
  expect(grupoCookie).toBeDefined();
  await notifications.goto();
  await expect(notifications.resendButton(booking, type)).toBeVisible();
  await page.context().clearCookies();
  await page.context().addCookies([{ name: grupoCookie!.name, value: grupoCookie!.value, url: APP_URL }]);
  await notifications.resendButton(booking, type).click();
  await expect(notifications.resent("not_found")).toBeVisible();
  await expect(admin.shell.banner).toContainText(STAFF.group.partner);
  // Give a wrongly accepted resend time to arrive: it must not.
  await page.waitForTimeout(2_000);
  expect((await demoReceived(request, session.id)).find((n) => n.id === webhookId)?.deliveries).toBe(3);
  await grupo.close();
});

test("Grupo Demo sets its notification URL and rotates its signing secret: what is sent after verifies with the old and the new secret", async ({
  page,
  admin,
}) => {
  const endpoint = await startPartnerEndpoint();
  try {
    await admin.signIn(STAFF.group);
    const notifications = admin.notifications;
    await notifications.goto();

    // The address policy, said on the field.
    await notifications.setUrl("http://10.0.0.7/hooks");
    await expect(notifications.urlError("address")).toBeVisible();
    await expect(notifications.urlField).toHaveAttribute("aria-invalid", "true");
    await notifications.setUrl("ftp://partner.example/hooks");
    await expect(notifications.urlError("scheme")).toBeVisible();
    await notifications.setUrl(endpoint.url);
    await expect(notifications.urlSaved).toBeVisible();

    // Two rotations: the first secret becomes the previous one, still signing for 24 hours.
    const first = await notifications.rotate();
    // Beside the secret just made, never "there is no signing secret yet" (the first one, on a fresh database).
    await expect(page.getByText(notifications.t.secretSet, { exact: true })).toBeVisible();
    await expect(page.getByText(notifications.t.secretNotSet, { exact: true })).toHaveCount(0);
    const second = await notifications.rotate();
    expect(second).not.toBe(first);
    await expect(page.getByText(/The previous secret keeps signing until/)).toBeVisible();
    await expectNoAxeViolations(page, "the notifications page showing a new signing secret");

    await notifications.sendTest();
    await expect(notifications.testOk(204)).toBeVisible();
    expect(endpoint.received).toHaveLength(1);
    const sent = endpoint.received[0]!;
    expect(String(sent.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verifies(second, sent)).toBe(true);
    expect(verifies(first, sent)).toBe(true);
    expect(JSON.parse(sent.body)).toMatchObject({ type: "notification.test", data: { test: true } });

    // The new secret is shown once: not on the page when it is opened again.
    await notifications.goto();
    await expect(notifications.newSecret).toHaveCount(0);
    await expect(page.getByRole("main")).not.toContainText(second);
    await expect(page.getByText(/The previous secret also signs until/)).toBeVisible();

    // Both recorded in the audit log.
    await page.goto("/admin/audit?kind=signing_secret_rotated");
    await expect(page.getByRole("table").getByRole("row").filter({ hasText: admin.m.audit.kinds.signing_secret_rotated })).not.toHaveCount(
      0,
    );
  } finally {
    // Grupo Demo opens no checkouts, but leave it without an endpoint that is gone.
    await admin.notifications.goto();
    await admin.notifications.setUrl("");
    await expect(admin.notifications.urlSaved).toBeVisible();
    endpoint.server.closeAllConnections();
    await new Promise((resolve) => endpoint.server.close(resolve));
  }
});
