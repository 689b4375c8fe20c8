import { expect, test } from "./fixtures";
import { signedInContext } from "./pages/admin/backoffice";
import { APP_URL, STAFF } from "./support/app";
import { aBookingReference } from "./support/test-data";

/*
 * One partner's staff never see or act on another partner's operations (lib/backoffice/operations/ownership.ts).
 * Grupo Demo's management group key reaches agency 101, but 101 is Viajes Aurora's: Grupo Demo's
 * staff, even working on agency 101, cannot list, find, open, export, see the webhook events of,
 * cancel or refund an operation of Viajes Aurora; forged forms change nothing either.
 */

test.use({ baseURL: APP_URL, locale: "en-GB" });

test("Grupo Demo's staff cannot list, find, open, export or see the webhook events of Viajes Aurora's operation", async ({
  page,
  admin,
  sandbox,
  checkout,
  checkoutSessions,
}) => {
  // Viajes Aurora's operation, from its own checkout (so our webhook receiver gets its events).
  const booking = aBookingReference("E2E-OWN");
  await checkout.detailsSent(checkoutSessions, { reference: booking, locale: "en" });

  // Aurora's staff see it, with its webhook events once the API cancels it.
  await admin.signIn(STAFF.aurora);
  await admin.openByReference(booking);
  const operationUrl = new URL(page.url());
  const operationId = decodeURIComponent(operationUrl.pathname.split("/").at(-1)!);
  await sandbox.cancel(operationId);
  await expect
    .poll(
      async () => {
        await page.reload();
        return (await admin.operation.webhooks.count()) > 0 ? await admin.operation.webhooks.innerText() : "";
      },
      { timeout: 30_000 },
    )
    .toContain("CANCELLED");
  const auroraCsv = await (await page.request.get("/admin/operations/export")).text();
  expect(auroraCsv).toContain(operationId);
  await admin.shell.signOut();

  // Grupo Demo's staff, on its own agency and then on 101 (which its key reaches).
  await admin.signIn(STAFF.group);
  const { operations, operation, m } = admin;
  for (const [name, agency] of [
    ["Viajes Brisa", 102],
    ["Viajes Aurora", 101],
  ] as const) {
    await admin.shell.switchAgency(name, agency);
    const where = `on agency ${agency}`;

    await operations.goto("?size=100");
    await expect(operations.heading).toBeVisible();
    await expect(operations.row(booking), where).toHaveCount(0);
    await expect(page.getByRole("main"), where).not.toContainText(booking);

    await operations.findByReference(booking);
    await expect(page.getByRole("main"), where).toContainText(m.operations.notFound(booking));

    for (const path of [operationUrl.pathname, `${operationUrl.pathname}${operationUrl.search}`]) {
      await page.goto(path);
      await expect(operation.heading, where).toHaveText(m.operation.notFoundTitle);
      await expect(operation.webhooks, where).toHaveCount(0);
      await expect(operation.cancelButton, where).toHaveCount(0);
      await expect(page.getByRole("main"), where).not.toContainText(booking);
      await expect(page.getByRole("main"), where).not.toContainText("CANCELLED");
    }

    await page.goto(`${operationUrl.pathname}/refund`);
    await expect(page.getByRole("main"), where).toContainText(m.refundForm.notFoundTitle);
    await expect(admin.refund.review, where).toHaveCount(0);

    const csv = await page.request.get("/admin/operations/export");
    expect(csv.status(), where).toBe(200);
    const body = await csv.text();
    expect(body, where).not.toContain(operationId);
    expect(body, where).not.toContain(booking);
  }
});

test("Grupo Demo's staff cannot cancel or refund Viajes Aurora's operations, even by submitting Aurora's own forms", async ({
  browser,
  admin,
  page,
  sandbox,
}) => {
  const generated = await sandbox.createOperation();
  const confirmed = await sandbox.createOperation();
  await sandbox.confirm(confirmed.id);

  // Grupo Demo's session, working on agency 101 (the worst case: its key reaches Aurora's operations).
  const grupo = await signedInContext(browser, STAFF.group);
  await grupo.admin.shell.switchAgency("Viajes Aurora", 101);
  const [grupoCookie] = (await grupo.page.context().cookies(APP_URL)).filter((cookie) => cookie.name === "staff_session");
  expect(grupoCookie).toBeDefined();

  // Aurora's own forms (its cancel form, its refund's confirmation step), submitted with Grupo Demo's session.
  const asAurora = async () => {
    await page.context().clearCookies();
    await admin.signIn(STAFF.aurora);
  };
  await asAurora();
  const asGrupo = async () => {
    await page.context().clearCookies();
    await page.context().addCookies([{ name: grupoCookie!.name, value: grupoCookie!.value, url: APP_URL }]);
  };

  await admin.openByReference(generated.externalId);
  await asGrupo();
  await admin.operation.cancel("Not ours to cancel");
  await expect(admin.operation.heading).toHaveText(admin.m.operation.notFoundTitle);
  expect(await sandbox.status(generated.id)).toBe("GENERATED");
  expect((await sandbox.history(generated.id)).map((entry) => entry.status)).not.toContain("CANCELLED");

  await asAurora();
  await admin.openByReference(confirmed.externalId);
  await admin.operation.refundLink.click();
  await admin.refund.agencyFee.fill("10");
  await admin.refund.review.click();
  await expect(admin.refund.confirm).toBeVisible();
  await asGrupo();
  await admin.refund.confirm.click();
  await expect(page.getByRole("main")).toContainText(admin.m.refundForm.notFoundTitle);
  expect(await sandbox.status(confirmed.id)).toBe("CONFIRMED");

  // The first step too: Grupo Demo asks for a review of Aurora's refund.
  await asAurora();
  await page.goto(`/admin/operations/${encodeURIComponent(confirmed.id)}/refund`);
  await expect(admin.refund.review).toBeVisible();
  await asGrupo();
  await admin.refund.review.click();
  await expect(page.getByRole("main")).toContainText(admin.m.refundForm.notFoundTitle);
  expect(await sandbox.status(confirmed.id)).toBe("CONFIRMED");

  // Aurora's staff still can: the refusals above were about who asked, not about the operations.
  await asAurora();
  await admin.openByReference(generated.externalId);
  await admin.operation.cancel("Customer booked another trip");
  await admin.operation.expectStatus("CANCELLED");
  expect(await sandbox.status(generated.id)).toBe("CANCELLED");
  await grupo.close();
});
