import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { APP_URL } from "./support/app";
import { expectNoAxeViolations } from "./support/axe";
import { expectNoHtmlcsErrors } from "./support/htmlcs";
import { aCustomer } from "./support/test-data";

/*
 * Every page a customer can see, checked by two checkers that share no code: axe-core against WCAG
 * 2.0, 2.1 and 2.2 A and AA, and HTML_CodeSniffer (pa11y's, WCAG2AA errors; e2e/support/htmlcs.ts).
 * The demo shop, the checkout's pages (details empty and with errors, offers, status, not found)
 * and the sandbox's hosted pages (financing page, provider checkout, result page), in Spanish and
 * in English, on a desktop and at a phone's viewport.
 */

test.use({ baseURL: APP_URL });

async function expectAccessible(page: Page, what: string): Promise<void> {
  await expectNoAxeViolations(page, what);
  await expectNoHtmlcsErrors(page, what);
}

for (const locale of ["es-ES", "en-GB"] as const) {
  test.describe(`accessibility (${locale})`, () => {
    test.use({ locale });

    test("the demo shop, and its notice when the customer comes back", async ({ checkout }) => {
      const { page, m, shop } = checkout;
      await shop.goto();
      await expect(shop.heading).toHaveText(m.shop.title);
      await expectAccessible(page, "the shop");

      await page.goto("/?checkoutSession=cs_accessibility_check&outcome=confirmed");
      await expect(shop.returnNotice).toBeVisible();
      await expectAccessible(page, "the shop with the return notice");
    });

    test("the details form, empty and after a failed submit", async ({ checkout }) => {
      const { page, m, details } = checkout;
      await checkout.startAtShop();
      await expectAccessible(page, "the empty details form");

      await details.fill({ firstName: "", email: "ana.example.com", documentId: "12345678A", postalCode: "99999" });
      await details.submit();
      await expect(details.errorSummary).toBeVisible();
      await expect(details.field("email")).toHaveAttribute("aria-invalid", "true");
      await expect(details.field("firstName")).toHaveAccessibleDescription(new RegExp(m.form.errors.required.firstName));
      await expectAccessible(page, "the details form showing errors");
    });

    test("the offers page, and the offers after a refusal with alternatives", async ({ checkout }) => {
      const { page, offers } = checkout;
      await checkout.startWithDetails(aCustomer({ email: "ana+refuse_offer@example.com" }));
      await expect(offers.representativeExample).toBeVisible();
      await expectAccessible(page, "the offers page");

      await offers.choose(12, "Financiera Olivo");
      await expect(offers.refusedNotice).toBeVisible();
      await expectAccessible(page, "the offers page after a refusal");
    });

    test("the status page, pending at the provider and then confirmed", async ({ checkout }) => {
      const { page, m, status, provider } = checkout;
      const sessionId = await checkout.startWithDetails(aCustomer());
      await checkout.chooseAndReachProvider(12, "Financiera Olivo");

      // The customer leaves the provider's page unsigned and opens the status page.
      await status.goto(sessionId);
      await status.expectState("pending");
      await expect(status.checkAgain).toBeVisible();
      await expect(page.getByRole("status").filter({ hasText: m.status.checking })).toBeVisible();
      await expectAccessible(page, "the status page, pending");

      await status.continueAtProvider.click();
      await expect(provider.heading).toHaveText(provider.t.checkout.heading);
      await provider.sign();
      await status.expectState("confirmed");
      await expectAccessible(page, "the status page, confirmed");
    });

    test("the status page when the financing is refused", async ({ checkout }) => {
      const { page, offers, status } = checkout;
      await checkout.startWithDetails(aCustomer({ email: "ana+refuse_all@example.com" }));
      await offers.choose(12, "Financiera Olivo");
      await status.expectState("refused");
      await expectAccessible(page, "the status page, refused");
    });

    test("the checkout's not-found page", async ({ checkout }) => {
      const { page, m } = checkout;
      const response = await page.goto("/checkout/cs_this_session_does_not_exist");
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(m.notFound.title);
      await expectAccessible(page, "the not-found page");
    });

    test("the sandbox's hosted pages: financing page, provider checkout, result page", async ({ sandbox, sandboxPages }) => {
      const { page, financing, provider, result } = sandboxPages;
      const operation = await sandbox.createOperation();

      await financing.goto(operation.financingUrl);
      await expect(financing.heading).toHaveText(financing.t.financing.title);
      await expectAccessible(page, "the sandbox's financing page");

      await financing.choose(/^Financiera Olivo: 12 /);
      await expect(provider.heading).toHaveText(provider.t.checkout.heading);
      await expectAccessible(page, "the sandbox's provider checkout");

      await provider.sign();
      await expect(result.heading).toHaveText(result.t.status.CONFIRMED.heading);
      await expectAccessible(page, "the sandbox's result page");
    });

    test.describe("on a phone (390×844)", () => {
      test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

      test("the shop, the form with its errors, the offers, the provider checkout and the status page", async ({ checkout }) => {
        const { page, shop, details, offers, provider, status } = checkout;
        await shop.goto();
        await expectAccessible(page, "the shop on a phone");

        await shop.payInInstallments();
        await expectAccessible(page, "the empty details form on a phone");
        await details.fill({ email: "ana.example.com", phone: "512345678" });
        await details.submit();
        await expect(details.errorSummary).toBeVisible();
        await expectAccessible(page, "the details form with errors on a phone");

        await details.complete(aCustomer());
        await expect(offers.representativeExample).toBeVisible();
        await expectAccessible(page, "the offers page on a phone");

        await checkout.chooseAndReachProvider(3, "Banca Nube");
        await expectAccessible(page, "the provider checkout on a phone");

        await provider.sign();
        await status.expectState("confirmed");
        await expectAccessible(page, "the status page on a phone");
      });
    });
  });
}
