import countries from "i18n-iso-countries";
import en from "i18n-iso-countries/langs/en.json";
import es from "i18n-iso-countries/langs/es.json";
import type { Locale } from "@/lib/i18n/locales";
import { COUNTRY_LIST_SEPARATOR } from "./country-options";

/**
 * ISO 3166-1 alpha-3 codes with their names, for the nationality and country selects: the partner
 * API wants codes, customers pick names.
 */

countries.registerLocale(en);
countries.registerLocale(es);

const CODES = new Set(Object.keys(countries.getAlpha3Codes()));

export function isCountryCode(code: string): boolean {
  return CODES.has(code);
}

/** Sorted once per locale: the same ~250 names for every request (a collator and a sort cost a few ms). */
const OPTIONS = new Map<Locale, readonly { code: string; name: string }[]>();

/** Every country as `{ code, name }`, sorted by its name in the locale. */
export function countryOptions(locale: Locale): readonly { code: string; name: string }[] {
  let options = OPTIONS.get(locale);
  if (!options) {
    const collator = new Intl.Collator(locale);
    options = Object.freeze(
      [...CODES]
        .map((code) => Object.freeze({ code, name: countries.getName(code, locale) ?? code }))
        .sort((a, b) => collator.compare(a.name, b.name)),
    );
    OPTIONS.set(locale, options);
  }
  return options;
}

/** Built once per locale. */
const LISTS = new Map<Locale, string>();

/**
 * Every country, sorted by name in the locale, in the compact form the details form takes as a
 * prop ("AFGAfganistán|ALBAlbania|…": a 3-letter code then the name): the list travels in the page's
 * RSC payload, where this is a third of the size of `{code, name}` objects and of `<option>`
 * markup (which the payload escapes). lib/checkout/session/country-options.ts turns it into the options.
 */
export function countryList(locale: Locale): string {
  let list = LISTS.get(locale);
  if (list === undefined) {
    list = countryOptions(locale)
      .map(({ code, name }) => `${code}${name}`)
      .join(COUNTRY_LIST_SEPARATOR);
    LISTS.set(locale, list);
  }
  return list;
}

export function countryName(code: string, locale: Locale): string {
  return countries.getName(code, locale) ?? code;
}
