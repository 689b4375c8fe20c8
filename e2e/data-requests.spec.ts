import { randomUUID } from "node:crypto";
import { expect, test } from "./fixtures";
import { signedInContext } from "./pages/admin/backoffice";
import { StaffPages } from "./pages/admin/staff-pages";
import { APP_URL, STAFF } from "./support/app";
import { expectNoAxeViolations } from "./support/axe";
import { aBookingReference, aCustomer, aDni } from "./support/test-data";

/*
 * A customer's data requests, as the back-office answers them: an administrator grants the
 * permission to another; without it the page, its menu entry and the export are refused; with it,
 * the customer of a finished checkout is found by their document number written another way, their
 * data exported as JSON, and erased, and the operation's page then says the details were erased.
 */

test.use({ baseURL: APP_URL, locale: "en-GB" });

test("an administrator granted data requests finds a finished checkout's customer, exports and erases their data; without it, refused", async ({
  browser,
  checkout,
  checkoutSessions,
  sandbox,
}) => {
  test.setTimeout(300_000);
  const documentId = aDni();
  const reference = aBookingReference("DR");
  const customer = aCustomer({ documentId, email: `data-request-${randomUUID().slice(0, 8)}@example.com` });
  const { sessionId, operationId } = await checkout.atProvider(checkoutSessions, reference, APP_URL, customer);
  // The customer signs at the provider and comes back: the checkout is finished (confirmed).
  await checkout.provider.sign();
  await expect.poll(async () => (await checkoutSessions.read(sessionId)).final, { timeout: 90_000 }).toBe(true);
  expect(await sandbox.status(operationId)).toBe("CONFIRMED");

  const lucia = await signedInContext(browser, STAFF.aurora);
  const diego = await signedInContext(browser, STAFF.sessions);
  try {
    const staff = new StaffPages(lucia.page, "en");
    await staff.goto();
    await staff.manage(STAFF.sessions.name);
    await staff.setDataRequests(false);

    // Without the permission: no menu entry, the page not found, the download refused.
    const requests = diego.admin.dataRequests;
    await diego.page.goto("/admin");
    await expect(diego.admin.shell.section("dataRequests")).toHaveCount(0);
    expect((await diego.page.request.get("/admin/data-requests", { maxRedirects: 0 })).status()).toBe(403);
    const refused = await diego.page.request.post("/admin/data-requests/export", {
      form: { by: "document", value: documentId },
      headers: { Origin: APP_URL },
      maxRedirects: 0,
    });
    expect(refused.status()).toBe(403);
    expect(await refused.text()).not.toContain(customer.email);

    // Granted by another administrator: effective on the next request.
    await staff.setDataRequests(true);
    await diego.page.goto("/admin");
    await diego.admin.shell.section("dataRequests").click();
    await expect(requests.heading).toHaveText(requests.t.title);

    // The document number written another way: lower case, spaces and a dash.
    const written = `${documentId.slice(0, 4)} ${documentId.slice(4, 8)}-${documentId.slice(8).toLowerCase()}`;
    await requests.find("document", written);
    await expect(requests.sessions).toHaveCount(1);
    await expect(requests.session(reference)).toContainText(requests.t.yes);
    await expectNoAxeViolations(diego.page, "a customer's sessions on the data requests page");

    const { download, body } = await requests.downloadExport();
    expect(download.suggestedFilename()).toMatch(/^customer-data-[\d-]+\.json$/);
    expect(body).toMatchObject({
      sessions: [
        {
          sessionId,
          bookingReference: reference,
          final: true,
          customerData: { status: "present", data: { documentId, email: customer.email } },
        },
      ],
    });

    await requests.seeExport.click();
    await expect(requests.exported).toContainText(reference);
    await expect(requests.exported).toContainText(customer.email);

    await requests.erase(reference);
    await expect(diego.page.getByText(requests.t.erased.replace("{references}", reference))).toBeVisible();
    // Erased: no longer found.
    await expect(requests.none).toBeVisible();

    await diego.admin.operation.goto(operationId);
    await expect(diego.page.getByText(diego.admin.m.common.customerErased)).toBeVisible();
  } finally {
    await lucia.close();
    await diego.close();
  }
});
