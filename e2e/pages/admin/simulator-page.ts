import type { Locator, Page } from "@playwright/test";
import type { AdminMessages } from "@/lib/i18n/admin-messages";
import type { Messages } from "@/lib/i18n/messages";
import { OfferList } from "../offer-list";

/** `/admin/simulator`: the plans for an amount, quoted as the customer would see them. */
export class SimulatorPage {
  readonly heading: Locator;
  readonly amount: Locator;
  readonly country: Locator;
  readonly submit: Locator;
  readonly results: Locator;
  readonly resultsHeading: Locator;
  /** The plans, in the customer's words (`customer`: the checkout's messages in the same language). */
  readonly offers: OfferList;

  constructor(
    readonly page: Page,
    readonly m: AdminMessages,
    customer: Messages,
  ) {
    this.heading = page.getByRole("heading", { level: 1, name: m.simulator.title });
    this.amount = page.getByLabel(m.simulator.amount, { exact: true });
    this.country = page.getByLabel(m.simulator.country, { exact: true });
    this.submit = page.getByRole("button", { name: m.simulator.submit, exact: true });
    this.results = page.locator("section[aria-labelledby=results-heading]");
    this.resultsHeading = page.locator("#results-heading");
    this.offers = new OfferList(page, customer);
  }

  async goto() {
    await this.page.goto("/admin/simulator");
  }

  async simulate(amount: string, countryName?: string) {
    await this.amount.fill(amount);
    if (countryName) await this.country.selectOption({ label: countryName });
    await this.submit.click();
  }
}
