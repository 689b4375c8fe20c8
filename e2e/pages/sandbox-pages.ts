import type { Locator, Page } from "@playwright/test";
import { horizontalOverflow } from "../support/layout";

/*
 * The sandbox's hosted pages (docs/architecture.md, "The sandbox"): what the financing partner and its providers show the
 * customer. They speak English only.
 */

/** The sandbox's `financingUrl` page: the customer picks an installment plan. */
export class SandboxFinancingPage {
  readonly heading: Locator;
  readonly plans: Locator;
  readonly alert: Locator;
  readonly continueButton: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.plans = page.getByRole("group", { name: "Installment plans" });
    this.alert = page.getByRole("alert");
    this.continueButton = page.getByRole("button", { name: "Continue to the provider" });
  }

  async goto(financingUrl: string) {
    await this.page.goto(financingUrl);
  }

  /** A plan's radio, by its accessible name, e.g. "Financiera Olivo: 12 monthly installments of 108,73 €". */
  plan(name: string | RegExp): Locator {
    return this.plans.getByRole("radio", { name });
  }

  async choose(name: string | RegExp) {
    await this.plan(name).check();
    await this.continueButton.click();
  }

  horizontalOverflow(): Promise<number> {
    return horizontalOverflow(this.page);
  }
}

/** The provider checkout at `paymentUrl`: the plan to review, then sign or decline. */
export class SandboxProviderCheckoutPage {
  readonly heading: Locator;
  readonly provider: Locator;
  readonly schedule: Locator;
  readonly signButton: Locator;
  readonly declineButton: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.provider = page.getByRole("banner");
    this.schedule = page.getByRole("table", { name: "Payment schedule" });
    this.signButton = page.getByRole("button", { name: "Sign and accept" });
    this.declineButton = page.getByRole("button", { name: "Decline" });
  }

  /** One row per month of the schedule ("Month 1" ... "Month n"). */
  months(): Locator {
    return this.schedule.getByRole("rowheader", { name: /^Month \d+/ });
  }

  async sign() {
    await this.signButton.click();
  }

  async decline() {
    await this.declineButton.click();
  }

  horizontalOverflow(): Promise<number> {
    return horizontalOverflow(this.page);
  }
}

/** The sandbox's default result page, where the customer lands when the partner gave no redirect URLs. */
export class SandboxResultPage {
  readonly heading: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
  }
}

/** The sandbox's hosted pages, in the order a customer meets them. */
export class SandboxPages {
  readonly financing: SandboxFinancingPage;
  readonly provider: SandboxProviderCheckoutPage;
  readonly result: SandboxResultPage;

  constructor(readonly page: Page) {
    this.financing = new SandboxFinancingPage(page);
    this.provider = new SandboxProviderCheckoutPage(page);
    this.result = new SandboxResultPage(page);
  }
}
