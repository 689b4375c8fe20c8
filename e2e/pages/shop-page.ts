import { expect, type Locator, type Page } from "@playwright/test";
import type { Messages } from "@/lib/i18n/messages";
import { horizontalOverflow } from "../support/layout";

/** The demo shop at `/`: a travel agency's page whose "Pay in installments" opens a checkout session. */
export class ShopPage {
  readonly main: Locator;
  readonly heading: Locator;
  readonly payButton: Locator;
  /** The notice shown when the customer comes back from the checkout. */
  readonly returnNotice: Locator;

  constructor(
    readonly page: Page,
    readonly m: Messages,
  ) {
    this.main = page.getByRole("main");
    this.heading = page.getByRole("heading", { level: 1 });
    this.payButton = this.main.getByRole("button", { name: m.shop.payButton });
    this.returnNotice = this.main
      .locator("div")
      .filter({ has: page.getByText(m.shop.outcomeHeading, { exact: true }) })
      .last();
  }

  async goto() {
    await this.page.goto("/");
  }

  /** Opens a checkout session for the sample trip; answers its id, read from the page's URL. */
  async payInInstallments(): Promise<string> {
    await this.payButton.click();
    await expect(this.page).toHaveURL(/\/checkout\/cs_[\w-]+$/);
    return new URL(this.page.url()).pathname.split("/")[2]!;
  }

  horizontalOverflow(): Promise<number> {
    return horizontalOverflow(this.page);
  }
}
