import type { Locator, Page } from "@playwright/test";
import type { AdminMessages } from "@/lib/i18n/admin-messages";

/** `/admin/operations`: the agency's operations, filtered and paged, with the CSV export. */
export class OperationsPage {
  readonly heading: Locator;
  readonly reference: Locator;
  readonly search: Locator;
  readonly status: Locator;
  readonly from: Locator;
  readonly to: Locator;
  readonly size: Locator;
  readonly apply: Locator;
  readonly table: Locator;
  /** What a phone shows instead of the table: one card per operation. */
  readonly cards: Locator;
  readonly summary: Locator;
  readonly next: Locator;
  readonly previous: Locator;
  readonly pages: Locator;
  readonly exportLink: Locator;

  constructor(
    readonly page: Page,
    readonly m: AdminMessages,
  ) {
    const main = page.getByRole("main");
    this.heading = page.getByRole("heading", { level: 1, name: m.operations.title });
    this.reference = main.getByLabel(m.operations.reference, { exact: true });
    this.search = main.getByRole("button", { name: m.operations.search, exact: true });
    this.status = main.getByLabel(m.operations.status, { exact: true });
    this.from = main.getByLabel(m.operations.from, { exact: true });
    this.to = main.getByLabel(m.operations.to, { exact: true });
    this.size = main.getByLabel(m.operations.size, { exact: true });
    this.apply = main.getByRole("button", { name: m.operations.apply, exact: true });
    this.table = main.getByRole("table", { name: m.operations.caption });
    this.cards = main.getByRole("list", { name: m.operations.caption });
    this.summary = main.locator("#results-heading");
    this.pages = main.getByRole("navigation", { name: m.operations.pagesLabel });
    this.next = this.pages.getByRole("link", { name: m.operations.next, exact: true });
    this.previous = this.pages.getByRole("link", { name: m.operations.previous, exact: true });
    this.exportLink = main.getByRole("link", { name: m.operations.export, exact: true });
  }

  /** @param query the view's query string, "?status=GENERATED&size=10" */
  async goto(query = "") {
    await this.page.goto(`/admin/operations${query}`);
  }

  /** The booking references in the table, in order. */
  async references(): Promise<string[]> {
    return this.table.locator("tbody tr th").allInnerTexts();
  }

  row(reference: string): Locator {
    return this.table.getByRole("row").filter({ has: this.page.getByRole("link", { name: reference, exact: true }) });
  }

  async findByReference(reference: string) {
    await this.reference.fill(reference);
    await this.search.click();
  }
}
