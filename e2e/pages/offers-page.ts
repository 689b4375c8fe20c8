import { expect, type FrameLocator, type Locator, type Page } from "@playwright/test";
import type { Messages } from "@/lib/i18n/messages";
import { literally } from "../support/text";
import { OfferList } from "./offer-list";

/**
 * `/checkout/{id}/offers`, installments first: the counts on offer (links, "12 × 108,50 €"), then
 * the chosen count's plans side by side (a table: a column per provider, a "Choose" button at the
 * foot of each), the warning and the representative example.
 */
export class OffersPage extends OfferList {
  readonly heading: Locator;
  readonly refusedNotice: Locator;
  readonly failedNotice: Locator;
  readonly warning: Locator;
  /** The installment counts on offer. */
  readonly counts: Locator;
  /** "Correct my details": the details form again, whose changes replace the operation. */
  readonly editDetails: Locator;

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
    this.failedNotice = root.getByRole("alert").filter({ hasText: m.offers.failedNotice });
    this.warning = root.getByRole("main").getByText(m.offers.warning, { exact: true }).first();
    this.counts = root.getByRole("navigation", { name: m.offers.countsHeading });
    this.editDetails = root.getByRole("link", { name: m.offers.editDetails, exact: true });
  }

  async goto(sessionId: string, installments?: number) {
    await this.page.goto(`/checkout/${sessionId}/offers${installments === undefined ? "" : `?n=${installments}`}`);
  }

  /** The link to a count's plans, named by the count and its lowest monthly installment ("12 × 108,50 €"). */
  countOption(installments: number): Locator {
    return this.counts.getByRole("link", { name: new RegExp(`^${installments} × `) });
  }

  /** The count whose plans are shown (aria-current). */
  get selectedCount(): Locator {
    return this.counts.locator('a[aria-current="true"]');
  }

  /** The comparison table of the plans shown. */
  comparison(installments: number): Locator {
    return this.group(installments).getByRole("table");
  }

  /** Shows a count's plans (a click on its link) unless they are already shown. */
  async showInstallments(installments: number) {
    if ((await this.countOption(installments).getAttribute("aria-current")) !== "true") await this.countOption(installments).click();
    await expect(this.group(installments)).toBeVisible();
  }

  /** The cell of a plan's column on the row named `row` (the provider's column, by its header). */
  async figure(installments: number, company: string, row: string): Promise<Locator> {
    const table = this.comparison(installments);
    const headers = await table.locator("thead th").allInnerTexts();
    const column = headers.findIndex((text) => text.split("\n")[0]!.trim() === company);
    expect(column, `a column for ${company}`).toBeGreaterThanOrEqual(0);
    // The first column is the rows' labels (an empty cell in the header row).
    return table
      .getByRole("row")
      .filter({ has: this.root.getByRole("rowheader", { name: row, exact: true }) })
      .locator("td")
      .nth(column);
  }

  /**
   * The plan's "Choose this plan" button, whose accessible name says which plan it is ("Elegir este
   * plan: 12 cuotas con Financiera Olivo", no space before the colon).
   */
  chooseButton(installments: number, company: string): Locator {
    return this.root.getByRole("button", { name: this.m.offers.chooseLabel(installments, company), exact: true });
  }

  /** Every "Choose this plan" button shown. */
  get chooseButtons(): Locator {
    return this.root.getByRole("button", { name: new RegExp(`^${literally(this.m.offers.choose).source}`) });
  }

  /** Picks the count, then chooses the provider's plan. */
  async choose(installments: number, company: string) {
    await this.showInstallments(installments);
    await this.chooseButton(installments, company).click();
  }
}
