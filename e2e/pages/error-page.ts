import type { Locator, Page } from "@playwright/test";
import { MESSAGES, type Messages } from "@/lib/i18n/messages";
import type { UiLanguage } from "../support/text";

/**
 * The page the server answers itself when a page fails (lib/i18n/error-page.ts): "try again in a
 * moment" when the database is unreachable (503), "something went wrong" otherwise (500); readable
 * without JavaScript.
 */
export class ErrorPage {
  readonly m: Messages["errorPage"];

  constructor(
    readonly page: Page,
    readonly language: UiLanguage,
  ) {
    this.m = MESSAGES[language].errorPage;
  }

  get heading(): Locator {
    return this.page.getByRole("heading", { level: 1 });
  }

  get retryLink(): Locator {
    return this.page.getByRole("link", { name: this.m.retry });
  }

  get homeLink(): Locator {
    return this.page.getByRole("link", { name: this.m.home });
  }

  get unavailableTitle(): string {
    return this.m.unavailableTitle;
  }

  get errorTitle(): string {
    return this.m.errorTitle;
  }
}
