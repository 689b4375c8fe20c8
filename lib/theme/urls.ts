import { storedTheme, themeVersion, type Theme } from "./theme";

/**
 * Themes reach pages as stylesheets from our own origin (app/embed/theme.css/route.ts), not inline
 * <style>: CSP allows 'self' stylesheets, while an inline one needs the nonce of the document it was
 * first served in, which a client-side navigation (a server action, router.refresh) does not have.
 * The version in the URL lets the stylesheet be cached for good.
 */
export const THEME_STYLESHEET_PATH = "/embed/theme.css";

/** A partner's theme, as `:root` variables. */
export function themeStylesheetHref(partnerId: string, theme: Theme): string {
  return `${THEME_STYLESHEET_PATH}?${new URLSearchParams({ partner: partnerId, v: themeVersion(theme) })}`;
}

/** Any well-formed theme (saved or not), scoped to `[data-theme-preview="<version>"]`: for previews. */
export function previewStylesheetHref(theme: Theme): string {
  return `${THEME_STYLESHEET_PATH}?${new URLSearchParams({ preview: "1", ...storedTheme(theme) })}`;
}

export function previewScope(theme: Theme): string {
  return themeVersion(theme);
}
