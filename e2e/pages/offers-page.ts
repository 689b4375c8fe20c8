import type { FrameLocator, Locator, Page } from "@playwright/test";
import type { Messages } from "@/lib/i18n/messages";
import { OfferList } from "./offer-list";

/** `/checkout/{id}/offers`: the plans, grouped by their installments, and the representative example. */
export class OffersPage extends OfferList {
  readonly heading: Locator;
  readonly refusedNotice: Locator;
  readonly warning: Locator;

  /** @param within the checkout's frame, for a checkout embedded in a partner's page. */
  constructor(
    readonly page: Page,
    m: Messages,
    within?: FrameLocator,
  ) {
    const root = within ?? page;
    super(root, m);
    this.heading = root.getByRole("heading", { level: 1 });
    this.refusedNotice = root.getByRole("alert").filter({ hasText: m.offers.refusedNotice });
    this.warning = root.getByRole("main").getByText(m.offers.warning, { exact: true }).first();
  }

  async goto(sessionId: string) {
    await this.page.goto(`/checkout/${sessionId}/offers`);
  }

  async choose(installments: number, company: string) {
    await this.chooseButton(installments, company).click();
  }
}
