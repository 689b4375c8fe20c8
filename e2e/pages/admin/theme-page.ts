import type { Locator, Page } from "@playwright/test";
import type { AdminMessages } from "@/lib/i18n/admin-messages";

/** `/admin/theme`: the partner's theme, previewed as typed and saved only when its contrast passes. */
export class ThemePage {
  readonly heading: Locator;
  readonly previewButton: Locator;
  readonly saveButton: Locator;
  /** The heading of the reasons a theme cannot be saved. */
  readonly errorsHeading: Locator;
  readonly savedNotice: Locator;

  constructor(
    readonly page: Page,
    readonly m: AdminMessages,
  ) {
    this.heading = page.getByRole("heading", { level: 1, name: m.theme.title });
    this.previewButton = page.getByRole("button", { name: m.theme.preview });
    this.saveButton = page.getByRole("button", { name: m.theme.save });
    this.errorsHeading = page.getByRole("heading", { name: m.theme.errorsTitle });
    this.savedNotice = page.getByText(m.theme.saved);
  }

  async goto() {
    await this.page.goto("/admin/theme");
  }

  /** A colour's field, by its label ("Brand colour"). */
  color(name: keyof AdminMessages["theme"]["colors"]): Locator {
    return this.page.getByLabel(this.m.theme.colors[name], { exact: true });
  }
}
