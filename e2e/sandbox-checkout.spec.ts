import { expect, test } from "./fixtures";

/*
 * The partner API sandbox's hosted pages, clicked through the way a QA team does: an operation
 * created over the API with no redirect URLs, then the customer's path in a browser from
 * `financingUrl` through the provider checkout to the sandbox's default result page, and the outcome
 * checked the way a partner must, with GET /operations/{id}/status.
 */

const PLAN = /^Financiera Olivo: 12 monthly installments of /;

test.describe("sandbox hosted pages", () => {
  test("the customer picks a plan, signs at the provider and the financing is confirmed", async ({ sandbox, sandboxPages }) => {
    const { financing, provider, result } = sandboxPages;
    const operation = await sandbox.createOperation();

    await financing.goto(operation.financingUrl);
    await expect(financing.heading).toHaveText("Choose your installment plan");
    await expect(financing.page.getByText("Sandbox", { exact: true })).toBeVisible();
    expect(await sandbox.status(operation.id)).toBe("PENDING");

    await financing.choose(PLAN);

    await expect(provider.heading).toHaveText("Review and sign your plan");
    await expect(provider.provider).toContainText("Financiera Olivo");
    await expect(provider.months()).toHaveCount(12);
    await expect(provider.schedule.getByRole("row", { name: /Month 12 differs/ })).toBeVisible();
    expect(await sandbox.status(operation.id)).toBe("CLIENT_REQUESTED");

    await provider.sign();

    await expect(result.heading).toHaveText("Financing confirmed");
    await expect(result.page).toHaveURL(/\/sandbox\/pay\/result\?/);
    expect(await sandbox.status(operation.id)).toBe("CONFIRMED");
  });

  test("the customer declines at the provider and the financing is refused", async ({ sandbox, sandboxPages }) => {
    const { financing, provider, result } = sandboxPages;
    const operation = await sandbox.createOperation();

    await financing.goto(operation.financingUrl);
    await financing.choose(PLAN);
    await expect(provider.heading).toHaveText("Review and sign your plan");

    await provider.decline();

    await expect(result.heading).toHaveText("Financing refused");
    expect(await sandbox.status(operation.id)).toBe("REFUSED");
  });

  test.describe("for a Spanish browser", () => {
    test.use({ locale: "es-ES" });

    test("the pages are in Spanish, switch to English, and ask for nothing that is not there (no favicon 404)", async ({
      page,
      sandbox,
      sandboxPages,
    }) => {
      const { financing, provider, result } = sandboxPages;
      const failures: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") failures.push(`console: ${message.text()}`);
      });
      page.on("response", (response) => {
        if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
      });
      const operation = await sandbox.createOperation();

      await financing.goto(operation.financingUrl);
      await expect(page.locator("html")).toHaveAttribute("lang", "es");
      await expect(financing.heading).toHaveText("Elige tu plan de pago a plazos");
      await expect(financing.plan(/^Banca Nube: 3 cuotas mensuales de .+ \(primera cuota .+\)$/)).toBeVisible();
      await financing.choose(/^Financiera Olivo: 12 cuotas mensuales de /);

      await expect(provider.heading).toHaveText("Revisa y firma tu plan");
      await expect(provider.months()).toHaveCount(12);
      await expect(provider.schedule.getByRole("row", { name: /Mes 12 distinta/ })).toBeVisible();
      // The same page in English, by the link the page offers; its forms keep the language.
      await page.getByRole("link", { name: "English" }).click();
      await expect(provider.heading).toHaveText("Review and sign your plan");
      await expect(page.locator("html")).toHaveAttribute("lang", "en");
      await page.getByRole("button", { name: "Sign and accept" }).click();

      await expect(result.heading).toHaveText("Financing confirmed");
      expect(await sandbox.status(operation.id)).toBe("CONFIRMED");
      // The browser asked for no favicon (the pages name an inline one), nor anything else that failed.
      expect(failures).toEqual([]);
    });
  });

  test.describe("on a phone", () => {
    test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

    test("the financing page and the provider checkout fit the screen without scrolling sideways", async ({ sandbox, sandboxPages }) => {
      const { financing, provider } = sandboxPages;
      const operation = await sandbox.createOperation();

      await financing.goto(operation.financingUrl);
      await expect(financing.heading).toBeVisible();
      expect(await financing.horizontalOverflow()).toBe(0);

      await financing.choose(PLAN);
      await expect(provider.heading).toBeVisible();
      expect(await provider.horizontalOverflow()).toBe(0);
    });
  });
});
