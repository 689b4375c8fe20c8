import { expect, type Locator, type Page } from "@playwright/test";
import type { Messages } from "@/lib/i18n/messages";
import { horizontalOverflow } from "../support/layout";
import { HomePage } from "./home-page";

/** The demo shop at `/`: a travel agency's page whose "Pay in installments" opens a checkout session. */
export class ShopPage extends HomePage {
  readonly payButton: Locator;
  /** The notice shown when the customer comes back from the checkout. */
  readonly returnNotice: Locator;

  constructor(page: Page, m: Messages) {
    super(page, m);
    this.payButton = this.main.getByRole("button", { name: m.shop.payButton });
    this.returnNotice = this.main
      .locator("div")
      .filter({ has: page.getByText(m.shop.outcomeHeading, { exact: true }) })
      .last();
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
