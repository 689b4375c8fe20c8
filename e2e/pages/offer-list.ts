import type { FrameLocator, Locator, Page } from "@playwright/test";
import type { Messages } from "@/lib/i18n/messages";

/**
 * Plans grouped by their installments, and the representative example. The back-office's simulator
 * shows every group, one card per provider (components' OfferArticle); the checkout's offers page
 * (OffersPage) shows the chosen count's group as a comparison table.
 */
export class OfferList {
  readonly representativeExample: Locator;

  constructor(
    readonly root: Page | FrameLocator,
    readonly m: Messages,
  ) {
    this.representativeExample = root.getByRole("region", { name: m.offers.example.heading });
  }

  /** The section of the plans with `installments` monthly installments. */
  group(installments: number): Locator {
    return this.root.getByRole("region", { name: this.m.offers.groupHeading(installments), exact: true });
  }

  /** A plan's card ("With Financiera Olivo"), in its group. */
  plan(installments: number, company: string): Locator {
    return this.group(installments).getByRole("article", { name: this.m.offers.provider(company), exact: true });
  }
}
