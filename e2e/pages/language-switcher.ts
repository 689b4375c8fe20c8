import type { Locator, Page } from "@playwright/test";
import type { UiLanguage } from "../support/text";

/** The languages the switcher offers, named in themselves. */
const LANGUAGE_NAMES: Record<UiLanguage, string> = { es: "Español", en: "English" };

/** The language switcher in a page's header (the shop's, the checkout's and the back-office's). */
export class LanguageSwitcher {
  constructor(
    readonly page: Page,
    /** "Cambiar idioma:", "Switch language:": the words before the language's name. */
    readonly label: string,
  ) {}

  /** The button that switches to `language`: "Cambiar idioma: English". */
  button(language: UiLanguage): Locator {
    return this.page.getByRole("button", { name: `${this.label} ${LANGUAGE_NAMES[language]}` });
  }
}
