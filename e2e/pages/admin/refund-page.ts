import type { Locator, Page } from "@playwright/test";
import type { AdminMessages } from "@/lib/i18n/admin-messages";

/** `/admin/operations/{id}/refund`: the refund's steps (charges, review, done or rejected). */
export class RefundPage {
  readonly heading: Locator;
  readonly stepHeading: Locator;
  readonly agencyFee: Locator;
  readonly providerFee: Locator;
  readonly reason: Locator;
  readonly liveTotal: Locator;
  readonly review: Locator;
  readonly confirm: Locator;
  readonly change: Locator;
  readonly backToOperation: Locator;

  constructor(
    readonly page: Page,
    readonly m: AdminMessages,
  ) {
    const f = m.refundForm;
    this.heading = page.getByRole("heading", { level: 1 });
    this.stepHeading = page.locator("#refund-step-heading");
    this.agencyFee = page.getByLabel(f.agencyFee, { exact: true });
    this.providerFee = page.getByLabel(f.providerFee, { exact: true });
    this.reason = page.getByLabel(m.common.reasonLabel, { exact: true });
    this.liveTotal = page.getByRole("status").filter({ hasText: f.liveTotal.split("{")[0]!.trim() });
    this.review = page.getByRole("button", { name: f.review, exact: true });
    this.confirm = page.getByRole("button", { name: f.confirm, exact: true });
    this.change = page.getByRole("button", { name: f.change, exact: true });
    this.backToOperation = page.getByRole("link", { name: f.backToOperation }).first();
  }

  /** A row of the breakdown table by its label, e.g. "Total reserve". */
  amount(label: string | RegExp): Locator {
    return this.page
      .getByRole("row")
      .filter({ has: this.page.getByRole("rowheader", { name: label, exact: typeof label === "string" }) })
      .getByRole("cell");
  }
}
