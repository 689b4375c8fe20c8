import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SelectField, withSelected } from "@/components/ui/field";
import { countryList, countryOptions } from "./countries";
import { COUNTRY_LIST_SEPARATOR, countryOptionsHtml as optionsHtmlOf } from "./country-options";

const countryOptionsHtml = (locale: "es" | "en", placeholder: string) => optionsHtmlOf(countryList(locale), placeholder);

/** The options as a browser's HTML parser reads them: value, text and whether selected, in order. */
function parsedOptions(html: string): { value: string; label: string; selected: boolean }[] {
  return html
    .split("<option")
    .slice(1)
    .map((part) => {
      const match = /^ value=(?:"([^"]*)"|([^\s>]*))( selected="")?>(.*)$/s.exec(part);
      if (!match) throw new Error(`not an option: ${part.slice(0, 40)}`);
      const label = match[4]!
        .replace(/<\/option>$/, "")
        .replace(/&(#39|quot|lt|gt);/g, (_, name: string) => ({ "#39": "'", quot: '"', lt: "<", gt: ">" })[name]!)
        .replaceAll("&amp;", "&");
      return { value: match[1] ?? match[2] ?? "", label, selected: match[3] !== undefined };
    });
}

describe("countryList", () => {
  it("is every country, code then name, and no name holds the separator", () => {
    for (const locale of ["es", "en"] as const) {
      const entries = countryList(locale).split(COUNTRY_LIST_SEPARATOR);
      expect(entries).toEqual(countryOptions(locale).map(({ code, name }) => `${code}${name}`));
      expect(countryOptions(locale).some(({ name }) => name.includes(COUNTRY_LIST_SEPARATOR))).toBe(false);
    }
  });
});

describe("countryOptionsHtml", () => {
  it("lists the placeholder, then every country sorted by name in the locale, as React would", () => {
    for (const locale of ["es", "en"] as const) {
      const html = countryOptionsHtml(locale, "Elige un país");
      const options = parsedOptions(html);
      expect(options[0]).toEqual({ value: "", label: "Elige un país", selected: false });
      expect(options.slice(1).map(({ value, label }) => ({ code: value, name: label }))).toEqual(countryOptions(locale));
    }
    expect(parsedOptions(countryOptionsHtml("es", "x")).find((o) => o.value === "ESP")?.label).toBe("España");
  });

  it("is written once per locale and placeholder", () => {
    expect(countryOptionsHtml("es", "Elige un país")).toBe(countryOptionsHtml("es", "Elige un país"));
    expect(countryOptionsHtml("en", "Choose a country")).not.toBe(countryOptionsHtml("es", "Elige un país"));
  });

  it("escapes the placeholder", () => {
    expect(countryOptionsHtml("en", '<b>"x"</b>')).toMatch(/^<option value="">&lt;b&gt;&quot;x&quot;&lt;\/b&gt;<option /);
  });
});

describe("withSelected", () => {
  const html = countryOptionsHtml("es", "Elige un país");

  it("marks the chosen country, and only it", () => {
    const marked = parsedOptions(withSelected(html, "PRT")).filter((o) => o.selected);
    expect(marked).toEqual([{ value: "PRT", label: "Portugal", selected: true }]);
  });

  it("marks the placeholder for no answer", () => {
    expect(
      parsedOptions(withSelected(html, ""))
        .filter((o) => o.selected)
        .map((o) => o.value),
    ).toEqual([""]);
  });

  it("leaves the list as it is for a value not in it, whatever it contains", () => {
    for (const value of ["XXX", "ES", 'ESP" onclick="x', "<script>", "ESP>"]) expect(withSelected(html, value)).toBe(html);
  });
});

describe("SelectField with optionsHtml", () => {
  it("renders the select with its options and the chosen one selected", () => {
    const markup = renderToStaticMarkup(
      <SelectField
        name="countryCode"
        label="País"
        errorPrefix="Error:"
        optionsHtml={countryOptionsHtml("es", "Elige un país")}
        defaultValue="ESP"
      />,
    );
    expect(markup).toContain('<select id="field-countryCode"');
    expect(markup).toContain('<option value=ESP selected="">España');
    expect(parsedOptions(markup.split("<select")[1]!.split("</select>")[0]!)).toHaveLength(countryOptions("es").length + 1);
  });
});
