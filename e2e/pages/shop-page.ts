import { expect, type Locator } from "@playwright/test";
import { horizontalOverflow } from "../support/layout";
import { HomePage } from "./home-page";

/** The demo shop at `/`: a travel agency's page whose "Pay in installments" opens a checkout session. */
export class ShopPage extends HomePage {
  readonly payButton: Locator = this.main.getByRole("button", { name: this.m.shop.payButton });
  /** Said when the demo shop's budget for this address is spent. */
  readonly busyNotice: Locator = this.main.getByText(this.m.shop.busy);
  /** The notice shown when the customer comes back from the checkout. */
  readonly returnNotice: Locator = this.main
    .locator("div")
    .filter({ has: this.page.getByText(this.m.shop.outcomeHeading, { exact: true }) })
    .last();

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
