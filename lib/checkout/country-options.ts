/**
 * The country selects' options from the compact list lib/checkout/countries.ts writes (client-safe:
 * no country data here, the names come with the page). As HTML, for SelectField's `optionsHtml`:
 * one string per list and placeholder, kept, instead of ~250 React elements per select and render
 * (two selects on the details form, each server render and each hydration).
 */

/** Between two countries of the list; no country name contains it (countries.test.tsx checks). */
export const COUNTRY_LIST_SEPARATOR = "|";

/** A few lists at most (one per locale): the last ones built, kept. */
const BUILT = new Map<string, string>();
const MAX_BUILT = 8;

/**
 * `<option value="">placeholder` then `<option value=CODE>name` for each country: compact and valid
 * HTML (the codes are three letters, so no quotes are needed, and `</option>` may be left out).
 */
export function countryOptionsHtml(list: string, placeholder: string): string {
  const key = `${placeholder}\u0000${list}`;
  let html = BUILT.get(key);
  if (html === undefined) {
    html =
      `<option value="">${escapeHtml(placeholder)}` +
      list
        .split(COUNTRY_LIST_SEPARATOR)
        .filter((entry) => /^[A-Z]{3}./.test(entry))
        .map((entry) => `<option value=${entry.slice(0, 3)}>${escapeHtml(entry.slice(3))}`)
        .join("");
    if (BUILT.size >= MAX_BUILT) BUILT.clear();
    BUILT.set(key, html);
  }
  return html;
}

function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}
