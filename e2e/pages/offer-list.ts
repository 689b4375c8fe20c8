import type { FrameLocator, Locator, Page } from "@playwright/test";
import type { Messages } from "@/lib/i18n/messages";
import { literally } from "../support/text";

/**
 * The plans as the customer sees them (components' OfferSummary): grouped by their installments,
 * one card per provider, and the representative example. The checkout's offers page shows them,
 * and the back-office's simulator quotes them the same way.
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

  /**
   * The plan's "Choose this plan" button, whose accessible name says which plan it is: "Elegir este
   * plan: 12 cuotas con Financiera Olivo" (Chromium puts a space before the visually hidden part).
   */
  chooseButton(installments: number, company: string): Locator {
    const context = this.m.offers.chooseContext(installments, company);
    return this.root.getByRole("button", {
      name: new RegExp(`^${literally(this.m.offers.choose).source}\\s*${literally(context.trim()).source}$`),
    });
  }

  /** Every plan's "Choose this plan" button. */
  get chooseButtons(): Locator {
    return this.root.getByRole("button", { name: new RegExp(`^${literally(this.m.offers.choose).source}`) });
  }
}
