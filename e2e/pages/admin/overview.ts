import type { Locator, Page } from "@playwright/test";
import { FUNNEL_STEPS, type FunnelCounts } from "@/lib/backoffice/operations/overview-steps";
import type { AdminMessages } from "@/lib/i18n/admin-messages";

/**
 * The back-office home's overview (`/admin`): the funnel and the daily volumes, each an SVG image
 * with a name and a description, and a table of the same figures (visually hidden, read here as a
 * screen reader reads it).
 */
export class OverviewSection {
  readonly section: Locator;
  readonly funnelChart: Locator;
  readonly dailyChart: Locator;
  readonly funnelTable: Locator;
  readonly dailyTable: Locator;

  constructor(
    readonly page: Page,
    readonly m: AdminMessages,
  ) {
    this.section = page.getByRole("region", { name: m.overview.title });
    this.funnelChart = this.section.getByRole("img", { name: m.overview.funnelTitle, exact: true });
    this.dailyChart = this.section.getByRole("img", { name: m.overview.dailyTitle, exact: true });
    this.funnelTable = this.section.getByRole("table", { name: m.overview.funnelCaption });
    this.dailyTable = this.section.getByRole("table", { name: m.overview.dailyCaption });
  }

  /** The funnel's figures, as its table states them. */
  async funnel(): Promise<FunnelCounts> {
    const counts = {} as FunnelCounts;
    for (const step of FUNNEL_STEPS) {
      counts[step] = figure(await this.funnelTable.locator(`tbody tr[data-step="${step}"] td`).first().innerText());
    }
    return counts;
  }

  /** The daily table's rows, oldest first: the day (`YYYY-MM-DD`), opened, confirmed. */
  async days(): Promise<{ day: string; opened: number; confirmed: number }[]> {
    const rows = this.dailyTable.locator("tbody tr");
    const days = [];
    for (const row of await rows.all()) {
      const [opened, confirmed] = await row.locator("td").allInnerTexts();
      days.push({
        day: (await row.locator("time").getAttribute("datetime")) ?? "",
        opened: figure(opened!),
        confirmed: figure(confirmed!),
      });
    }
    return days;
  }
}

/** "1,234" or "1.234" → 1234. */
function figure(text: string): number {
  return Number(text.replace(/\D/g, ""));
}
