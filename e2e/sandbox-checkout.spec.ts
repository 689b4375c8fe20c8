import { expect, test } from "./fixtures";

/*
 * The partner API sandbox's hosted pages, clicked through the way a QA team does: an operation
 * created over the API with no redirect URLs, then the customer's path in a browser from
 * `financingUrl` through the provider checkout to the sandbox's default result page, and the outcome
 * checked the way a partner must, with GET /operations/{id}/status.
 */

const PLAN = /^Financiera Olivo: 12 monthly installments of /;

test.describe("sandbox hosted pages", () => {
  test("the customer picks a plan, signs at the provider and the financing is confirmed", async ({
    sandboxApi,
    financingPage,
    providerCheckoutPage,
    sandboxResultPage,
  }) => {
    const operation = await sandboxApi.createOperation();

    await financingPage.goto(operation.financingUrl);
    await expect(financingPage.heading).toHaveText("Choose your installment plan");
    await expect(financingPage.page.getByText("Sandbox", { exact: true })).toBeVisible();
    expect(await sandboxApi.status(operation.id)).toBe("PENDING");

    await financingPage.choose(PLAN);

    await expect(providerCheckoutPage.heading).toHaveText("Review and sign your plan");
    await expect(providerCheckoutPage.provider).toContainText("Financiera Olivo");
    await expect(providerCheckoutPage.months()).toHaveCount(12);
    await expect(providerCheckoutPage.schedule.getByRole("row", { name: /Month 12 differs/ })).toBeVisible();
    expect(await sandboxApi.status(operation.id)).toBe("CLIENT_REQUESTED");

    await providerCheckoutPage.sign();

    await expect(sandboxResultPage.heading).toHaveText("Financing confirmed");
    await expect(sandboxResultPage.page).toHaveURL(/\/sandbox\/pay\/result\?/);
    expect(await sandboxApi.status(operation.id)).toBe("CONFIRMED");
  });

  test("the customer declines at the provider and the financing is refused", async ({
    sandboxApi,
    financingPage,
    providerCheckoutPage,
    sandboxResultPage,
  }) => {
    const operation = await sandboxApi.createOperation();

    await financingPage.goto(operation.financingUrl);
    await financingPage.choose(PLAN);
    await expect(providerCheckoutPage.heading).toHaveText("Review and sign your plan");

    await providerCheckoutPage.decline();

    await expect(sandboxResultPage.heading).toHaveText("Financing refused");
    expect(await sandboxApi.status(operation.id)).toBe("REFUSED");
  });

  test.describe("on a phone", () => {
    test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

    test("the financing page and the provider checkout fit the screen without scrolling sideways", async ({
      sandboxApi,
      financingPage,
      providerCheckoutPage,
    }) => {
      const operation = await sandboxApi.createOperation();

      await financingPage.goto(operation.financingUrl);
      await expect(financingPage.heading).toBeVisible();
      expect(await financingPage.horizontalOverflow()).toBe(0);

      await financingPage.choose(PLAN);
      await expect(providerCheckoutPage.heading).toBeVisible();
      expect(await providerCheckoutPage.horizontalOverflow()).toBe(0);
    });
  });
});
