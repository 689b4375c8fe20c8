import { expect, test } from "./fixtures";

test.describe("home page", () => {
  // The browser's language picks the page's (Accept-Language), until the customer chooses one.
  test.use({ locale: "en-GB" });

  test("names the product and says what it is", async ({ checkout }) => {
    const { shop } = checkout;
    await shop.goto();

    await expect(shop.page).toHaveTitle(/travel financing checkout/i);
    await expect(shop.page.locator("html")).toHaveAttribute("lang", "en");
    await expect(shop.heading).toHaveText("Pay your trip in installments");
    await expect(shop.main.getByText(/white-label checkout for travel agencies/i)).toBeVisible();
    await expect(shop.main.getByRole("button", { name: "Pay in installments" })).toBeVisible();
  });

  test.describe("in Spanish", () => {
    test.use({ locale: "es-ES" });

    test("speaks Spanish to a Spanish browser", async ({ checkout }) => {
      const { shop } = checkout;
      await shop.goto();

      await expect(shop.page.locator("html")).toHaveAttribute("lang", "es");
      await expect(shop.heading).toHaveText("Paga tu viaje a plazos");
      await expect(shop.main.getByRole("button", { name: "Pagar a plazos" })).toBeVisible();
    });
  });

  test("switches language with the language switcher", async ({ checkout }) => {
    const { shop } = checkout;
    await shop.goto();

    await shop.page.getByRole("button", { name: "Español" }).click();

    await expect(shop.heading).toHaveText("Paga tu viaje a plazos");
    await expect(shop.page.locator("html")).toHaveAttribute("lang", "es");
  });

  test.describe("on a phone", () => {
    test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

    test("fits the screen without scrolling sideways", async ({ checkout }) => {
      const { shop } = checkout;
      await shop.goto();

      await expect(shop.heading).toBeVisible();
      expect(await shop.horizontalOverflow()).toBe(0);
    });
  });
});
