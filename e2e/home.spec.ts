import { expect, test } from "./fixtures";

test.describe("home page", () => {
  test("names the product and says what it is", async ({ homePage }) => {
    await homePage.goto();

    await expect(homePage.page).toHaveTitle(/travel financing checkout/i);
    await expect(homePage.mainHeading).toHaveText("Pay your trip in installments");
    await expect(homePage.main.getByText(/white-label checkout for travel agencies/i)).toBeVisible();
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
