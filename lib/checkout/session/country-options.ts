/**
 * The country selects' options from the compact list lib/checkout/session/countries.ts writes (client-safe:
 * no country data here, the names come with the page). As HTML, for SelectField's `optionsHtml`:
 * one string per list and placeholder, kept, instead of ~250 React elements per select and render
 * (two selects on the details form, each server render and each hydration).
 */
import { escapeHtml } from "@/lib/text/escape-html";

/** Between two countries of the list; no country name contains it (countries.test.tsx checks). */
export const COUNTRY_LIST_SEPARATOR = "|";

/**
 * By list, then placeholder: a few lists at most (one per locale), the last ones built kept. Keyed by
 * the list string itself, the same instance on every server render (lib/checkout/session/countries.ts keeps
 * it), whose hash V8 keeps: no key of ~10 KB is built and hashed per call.
 */
const BUILT = new Map<string, Map<string, string>>();
const MAX_BUILT = 8;

/**
 * `<option value="">placeholder` then `<option value=CODE>name` for each country: compact and valid
 * HTML (the codes are three letters, so no quotes are needed, and `</option>` may be left out).
 */
export function countryOptionsHtml(list: string, placeholder: string): string {
  let byPlaceholder = BUILT.get(list);
  if (byPlaceholder === undefined) {
    if (BUILT.size >= MAX_BUILT) BUILT.clear();
    byPlaceholder = new Map();
    BUILT.set(list, byPlaceholder);
  }
  let html = byPlaceholder.get(placeholder);
  if (html === undefined) {
    html =
      `<option value="">${escapeHtml(placeholder)}` +
      list
        .split(COUNTRY_LIST_SEPARATOR)
        .filter((entry) => /^[A-Z]{3}./.test(entry))
        .map((entry) => `<option value=${entry.slice(0, 3)}>${escapeHtml(entry.slice(3))}`)
        .join("");
    byPlaceholder.set(placeholder, html);
  }
  return html;
}
