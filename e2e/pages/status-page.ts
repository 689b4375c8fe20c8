import { expect, type FrameLocator, type Locator, type Page } from "@playwright/test";
import type { Messages } from "@/lib/i18n/messages";
import { DEMO_PARTNER_NAME } from "../support/app";

/** `/checkout/{id}/status`: what happened, and the way on (back to the partner, or to the provider). */
export class CheckoutStatusPage {
  readonly heading: Locator;
  readonly backToPartner: Locator;
  readonly payAnotherWay: Locator;
  readonly checkAgain: Locator;
  readonly continueAtProvider: Locator;
  /** The three steps' progress bar, in the header. */
  readonly progress: Locator;
  private readonly root: Page | FrameLocator;

  /** @param within the checkout's frame, for a checkout embedded in a partner's page. */
  constructor(
    readonly page: Page,
    readonly m: Messages,
    within?: FrameLocator,
  ) {
    const root = (this.root = within ?? page);
    const main = root.getByRole("main");
    this.heading = root.getByRole("heading", { level: 1 });
    this.backToPartner = main.getByRole("link", { name: m.common.backToPartner(DEMO_PARTNER_NAME), exact: true });
    this.payAnotherWay = main.getByRole("link", { name: m.common.payAnotherWay(DEMO_PARTNER_NAME), exact: true });
    this.checkAgain = main.getByRole("link", { name: m.common.checkAgain, exact: true });
    this.continueAtProvider = root.getByRole("link", { name: m.status.continueProvider, exact: true });
    this.progress = root.getByRole("list", { name: m.common.stepsLabel });
  }

  async goto(sessionId: string) {
    await this.page.goto(`/checkout/${sessionId}/status`);
  }

  /** The page's words for a state: its heading and its explanation. */
  async expectState(state: keyof Messages["status"]["states"]) {
    const text = this.m.status.states[state];
    await expect(this.page).toHaveURL(/\/checkout\/cs_[\w-]+\/status$/);
    await expect(this.heading).toHaveText(text.title);
    await expect(this.root.getByRole("main").getByText(text.body, { exact: true })).toBeVisible();
  }
}
