import { expect, test } from "./fixtures";
import { Backoffice } from "./pages/admin/backoffice";
import { CheckoutPages } from "./pages/checkout-pages";
import { APP_URL, STAFF } from "./support/app";
import { expectNoAxeViolations } from "./support/axe";
import { aBookingReference, aCustomer, isoDayFromToday } from "./support/test-data";

/*
 * Pay by link, on the app the other specs share, which has no SMTP_URL: staff turn a
 * simulator quote into a payment link, the customer opens it in a browser of their own and
 * finishes the checkout, and staff see the operation with its creator. A revoked link says so,
 * without JavaScript too; another partner's staff cannot see or revoke a link; a password-only
 * session cannot create one. The e-mail is payment-links-email.spec.ts (an app with SMTP).
 */

test.use({ baseURL: APP_URL, locale: "en-GB" });

const FLIGHT = { origin: "MAD", destination: "LIS", departureDate: isoDayFromToday({ days: 60 }) };

test.describe("payment links", () => {
  test("a quote becomes a link; the customer pays through it in their own browser; staff see the operation and its creator", async ({
    page,
    admin,
    browser,
  }) => {
    // A whole checkout, as the customer, between two back-office visits.
    test.slow();
    const { paymentLinks: links, m } = admin;
    await admin.signIn(STAFF.aurora);

    // The simulator's quote, one step from the form, its total filled in.
    await admin.simulator.goto();
    await admin.simulator.simulate("1234.50");
    await page.getByRole("link", { name: links.t.fromSimulator("€1,234.50") }).click();
    await expect(links.heading).toHaveText(links.t.newTitle);
    await expect(links.field("total")).toHaveValue("1234.50");
    await expectNoAxeViolations(page, "the new payment link form");

    // Bad input is named by its field, with the checkout sessions API's rules (at least one item).
    await links.field("bookingReference").fill("bad reference!");
    await links.create.click();
    await expect(links.errors).toBeVisible();
    await expect(links.errors).toContainText(links.t.fieldErrors.bookingReference);
    await expect(links.errors).toContainText(links.t.fieldErrors.flightOrigin);
    await expect(links.field("total")).toHaveValue("1234.50");
    await expectNoAxeViolations(page, "the new payment link form with errors");

    const reference = aBookingReference("LINK");
    const url = await links.createLink({
      reference,
      packageName: "Lisboa por teléfono",
      travellers: 2,
      flight: FLIGHT,
      customer: { firstName: "Ana", lastName: "García López", email: "ana@example.com" },
      locale: "es",
    });
    const sessionId = url.split("/").pop()!;
    // Nothing but the session id: no query, no customer data.
    expect(url).toBe(`${APP_URL}/checkout/${sessionId}`);
    await expect(links.qr).toBeVisible();
    expect(await links.qr.locator("svg path").count()).toBeGreaterThan(0);
    await expect(links.copyButton).toBeVisible();
    await expect(links.createdBy).toHaveText(STAFF.aurora.name);
    await expect(links.state).toHaveText(links.t.states.open);
    // No SMTP_URL on this app: the page says so, and offers the copy and the QR code only.
    await expect(links.noSmtp).toBeVisible();
    await expect(links.send).toHaveCount(0);
    await expectNoAxeViolations(page, "a payment link");

    // The same booking again: the same link (the API's idempotency per booking reference).
    await links.gotoNew();
    await links.fill({ reference, packageName: "Lisboa por teléfono", travellers: 2, total: "1234.50", flight: FLIGHT, locale: "es" });
    await links.create.click();
    await expect(page).toHaveURL(`${APP_URL}/admin/payment-links/${sessionId}?notice=existing`);

    // The customer, in a browser of their own, in the language staff chose.
    const customerContext = await browser.newContext({ baseURL: APP_URL, locale: "en-GB" });
    try {
      const customerPage = await customerContext.newPage();
      const checkout = new CheckoutPages(customerPage, "es", { browserLanguage: "en" });
      await customerPage.goto(url);
      await expect(checkout.details.heading).toHaveText(checkout.m.form.title);
      await expect(checkout.details.bookingSummary).toContainText("Lisboa por teléfono");
      await expect(checkout.details.field("firstName")).toHaveValue("Ana");
      await expect(checkout.details.field("email")).toHaveValue("ana@example.com");
      await checkout.details.complete(aCustomer());
      await expect(checkout.offers.heading).toHaveText(checkout.m.offers.title);
      await checkout.chooseAndReachProvider(12, "Financiera Olivo");
      await checkout.provider.sign();
      await checkout.status.expectState("confirmed");
    } finally {
      await customerContext.close();
    }

    // Staff: the link is used (no revoking any more), its operation shows who created it.
    await page.goto(`/admin/payment-links/${sessionId}`);
    await expect(links.state).toHaveText(links.t.states.confirmed);
    await expect(links.revoke).toHaveCount(0);
    await links.operationLink.click();
    await admin.operation.expectOperation(reference);
    await expect(page.getByTestId("operation-created-by")).toHaveText(m.operation.createdByStaff(STAFF.aurora.name));

    // The operations list, "created by staff": this link, with its creator.
    await page.goto("/admin/operations?origin=staff");
    const row = page.getByRole("row").filter({ hasText: reference });
    await expect(row).toContainText(STAFF.aurora.name);
    await expect(row).toContainText(m.common.statuses.CONFIRMED);
    await expectNoAxeViolations(page, "the operations list, created by staff");

    // The audit log names the link's creation with its creator.
    await page.goto("/admin/audit?kind=payment_link_created");
    await expect(page.getByRole("row").filter({ hasText: STAFF.aurora.name }).first()).toContainText(m.audit.kinds.payment_link_created);
  });

  test("a revoked link expires at once and says so, without JavaScript too; another partner's staff cannot see or revoke it", async ({
    page,
    admin,
    browser,
  }) => {
    // Two staff sign-ins and three browsers.
    test.slow();
    const { paymentLinks: links } = admin;
    await admin.signIn(STAFF.aurora);
    await links.gotoNew();
    const reference = aBookingReference("REVOKE");
    const url = await links.createLink({
      reference,
      packageName: "Oporto",
      travellers: 1,
      total: "450",
      flight: FLIGHT,
    });
    const sessionId = url.split("/").pop()!;

    // Grupo Demo's staff: "not found", nothing to revoke, the link untouched.
    const otherContext = await browser.newContext({ baseURL: APP_URL, locale: "en-GB" });
    try {
      const other = new Backoffice(await otherContext.newPage(), "en");
      await other.signIn(STAFF.group);
      await other.page.goto(`/admin/payment-links/${sessionId}`);
      await expect(other.page.getByText(links.t.notFound)).toBeVisible();
      await expect(other.paymentLinks.revoke).toHaveCount(0);
      await expect(other.paymentLinks.linkField).toHaveCount(0);
      await other.page.goto("/admin/operations?origin=staff");
      await expect(other.page.getByRole("main")).not.toContainText(sessionId);
    } finally {
      await otherContext.close();
    }

    await page.goto(`/admin/payment-links/${sessionId}`);
    await links.revoke.click();
    await expect(page).toHaveURL(`${APP_URL}/admin/payment-links/${sessionId}?notice=revoked`);
    await expect(page.getByRole("status").filter({ hasText: links.t.revoked })).toBeVisible();
    await expect(links.state).toHaveText(links.t.revokedState);
    await expect(links.revoke).toHaveCount(0);
    await expect(links.linkField).toHaveCount(0);
    await page.goto("/admin/operations?origin=staff");
    await expect(page.getByRole("row").filter({ hasText: reference })).toContainText(links.t.revokedState);

    // The customer, with JavaScript off: a clear page, no form.
    const noScript = await browser.newContext({ baseURL: APP_URL, locale: "en-GB", javaScriptEnabled: false });
    try {
      const customerPage = await noScript.newPage();
      const checkout = new CheckoutPages(customerPage, "en");
      const response = await customerPage.goto(url);
      expect(response?.status()).toBe(200);
      await expect(checkout.details.heading).toHaveText(checkout.m.form.revokedTitle);
      await expect(customerPage.getByText(checkout.m.form.revokedBody)).toBeVisible();
      await expect(checkout.details.continueButton).toHaveCount(0);
    } finally {
      await noScript.close();
    }
    // axe runs as a script in the page: checked with JavaScript on (the page is the same).
    const customerContext = await browser.newContext({ baseURL: APP_URL, locale: "en-GB" });
    try {
      const customerPage = await customerContext.newPage();
      await customerPage.goto(url);
      await expect(customerPage.getByRole("heading", { level: 1 })).toHaveText(new CheckoutPages(customerPage, "en").m.form.revokedTitle);
      await expectNoAxeViolations(customerPage, "a revoked payment link");
    } finally {
      await customerContext.close();
    }
  });

  test("a password-only session cannot reach the payment link pages, nor create a link with the form already open", async ({
    admin,
    page,
    browser,
  }) => {
    // No session at all: the sign-in, which comes back here.
    await page.goto("/admin/payment-links/new");
    await expect(page).toHaveURL(/\/admin\/login\?next=%2Fadmin%2Fpayment-links%2Fnew$/);

    // A password-only session (another browser): sent to the second step.
    const passwordOnly = await browser.newContext({ baseURL: APP_URL, locale: "en-GB" });
    let cookie;
    try {
      const other = new Backoffice(await passwordOnly.newPage(), "en");
      await other.login.goto();
      await other.login.signInPasswordOnly(STAFF.security);
      await other.page.goto("/admin/payment-links/new");
      await expect(other.page).toHaveURL(/\/admin\/login\/code\?next=%2Fadmin%2Fpayment-links%2Fnew$/);
      await expect(other.paymentLinks.create).toHaveCount(0);
      cookie = (await passwordOnly.cookies()).find((c) => /staff_session$/.test(c.name));
    } finally {
      await passwordOnly.close();
    }
    expect(cookie).toBeDefined();

    // The form filled in with both factors, then sent with the password-only session: refused, nothing opened.
    const { paymentLinks: links } = admin;
    await admin.signIn(STAFF.aurora);
    await links.gotoNew();
    const reference = aBookingReference("NOFACTOR");
    await links.fill({ reference, packageName: "Oporto", travellers: 1, total: "450", flight: FLIGHT });
    await page.context().clearCookies();
    await page.context().addCookies([cookie!]);
    await links.create.click();
    await expect(page).toHaveURL(/\/admin\/login/);
    await page.context().clearCookies();
    await admin.signIn(STAFF.aurora, "/admin/operations?origin=staff");
    await expect(page.getByRole("heading", { level: 1, name: admin.m.operations.title })).toBeVisible();
    await expect(page.getByRole("main")).not.toContainText(reference);
  });
});
