import { expect, test } from "./fixtures";

test.describe("home page", () => {
  // The browser's language picks the page's (Accept-Language), until the customer chooses one.
  test.use({ locale: "en-GB" });

  test("names the product and says what it is", async ({ homePage }) => {
    await homePage.goto();

    await expect(homePage.page).toHaveTitle(/travel financing checkout/i);
    await expect(homePage.page.locator("html")).toHaveAttribute("lang", "en");
    await expect(homePage.mainHeading).toHaveText("Pay your trip in installments");
    await expect(homePage.main.getByText(/white-label checkout for travel agencies/i)).toBeVisible();
    await expect(homePage.main.getByRole("button", { name: "Pay in installments" })).toBeVisible();
  });

  test.describe("in Spanish", () => {
    test.use({ locale: "es-ES" });

    test("speaks Spanish to a Spanish browser", async ({ homePage }) => {
      await homePage.goto();

      await expect(homePage.page.locator("html")).toHaveAttribute("lang", "es");
      await expect(homePage.mainHeading).toHaveText("Paga tu viaje a plazos");
      await expect(homePage.main.getByRole("button", { name: "Pagar a plazos" })).toBeVisible();
    });
  });

  test("switches language with the language switcher", async ({ homePage }) => {
    await homePage.goto();

    await homePage.page.getByRole("button", { name: "Español" }).click();

    await expect(homePage.mainHeading).toHaveText("Paga tu viaje a plazos");
    await expect(homePage.page.locator("html")).toHaveAttribute("lang", "es");
  });

  test.describe("on a phone", () => {
    test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

    test("fits the screen without scrolling sideways", async ({ homePage }) => {
      await homePage.goto();

      await expect(homePage.mainHeading).toBeVisible();
      expect(await homePage.horizontalOverflow()).toBe(0);
    });
  });
});
