import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { contrastRatio } from "./contrast";
import { DEMO_BLUE_THEME, DEMO_THEME } from "./demo";
import {
  brandSoft,
  brandStrong,
  contrastErrors,
  DEFAULT_THEME,
  FIXED_COLORS,
  parseStoredTheme,
  parseThemeShape,
  storedTheme,
  themeCss,
  themeVariables,
  themeVersion,
  validateTheme,
  type Theme,
} from "./theme";

const globalsCss = readFileSync(path.join(process.cwd(), "app", "globals.css"), "utf8");

function cssToken(name: string): string | undefined {
  return new RegExp(`--${name}:\\s*([^;]+);`).exec(globalsCss)?.[1]?.trim();
}

function errorsOf(input: unknown) {
  const result = validateTheme(input);
  if (result.ok) throw new Error("expected the theme to be refused");
  return result.errors;
}

describe("themes", () => {
  it("the default theme and the fixed colours are the ones of app/globals.css", () => {
    const tokens: Record<string, string> = {
      brand: "color-brand",
      brandContrast: "color-brand-contrast",
      ink: "color-ink",
      surface: "color-surface",
      canvas: "color-canvas",
      muted: "color-muted",
    };
    for (const [field, token] of Object.entries(tokens)) expect(DEFAULT_THEME[field as keyof Theme], token).toBe(cssToken(token));
    for (const [token, value] of Object.entries(FIXED_COLORS)) expect(value, token).toBe(cssToken(`color-${token}`));
    expect(cssToken("radius-card")).toBe("0.75rem");
    expect(DEFAULT_THEME.radius).toBe(12);
  });

  it("the default and both demo themes pass every check", () => {
    for (const theme of [DEFAULT_THEME, DEMO_THEME, DEMO_BLUE_THEME]) {
      expect(validateTheme(storedTheme(theme))).toEqual({ ok: true, theme });
    }
  });

  it("names the field and the pair of a contrast failure: white on yellow buttons", () => {
    const errors = errorsOf({ ...storedTheme(DEFAULT_THEME), brand: "#f5c518" });
    expect(errors).toContainEqual(
      expect.objectContaining({
        field: "brandContrast",
        message: expect.stringMatching(/^brand\/brandContrast contrast 1\.\d+:1 is below 4\.5:1/),
      }),
    );
    // Yellow is also too light as link text on white.
    expect(errors).toContainEqual(expect.objectContaining({ field: "brand", message: expect.stringContaining("surface/brand contrast") }));
    const buttonError = errors.find((error) => error.field === "brandContrast")!;
    expect(buttonError.ratio).toBeCloseTo(contrastRatio("#f5c518", "#ffffff"), 10);
    expect(buttonError.required).toBe(4.5);
  });

  it("checks secondary text on the page and on cards, and the 3:1 edges against the fixed colours", () => {
    const lightMuted = errorsOf({ ...storedTheme(DEFAULT_THEME), muted: "#8a94a0" });
    expect(lightMuted.map((error) => error.message)).toEqual([
      expect.stringMatching(/^surface\/muted contrast 3\.\d+:1 is below 4\.5:1/),
      expect.stringMatching(/^canvas\/muted contrast 2\.\d+:1 is below 4\.5:1/),
    ]);

    // A dark surface loses the fixed error text, focus ring and notices: the theme says which.
    const dark = errorsOf({
      ...storedTheme(DEFAULT_THEME),
      surface: "#1f2937",
      ink: "#f9fafb",
      canvas: "#111827",
      muted: "#d1d5db",
      brand: "#6ee7b7",
      brandContrast: "#064e3b",
    });
    const messages = dark.map((error) => `${error.field}: ${error.message}`);
    expect(messages).toContainEqual(expect.stringContaining("surface: surface/danger contrast"));
    expect(messages).toContainEqual(expect.stringContaining("surface: surface/focus contrast"));
    expect(messages).toContainEqual(expect.stringContaining("ink: info-soft/ink contrast"));
  });

  it("refuses malformed fields, each by name", () => {
    const errors = errorsOf({
      brand: "green",
      brandContrast: "#fff",
      ink: "#1c2430",
      surface: "#ffffff",
      canvas: "#f4f6f8",
      muted: "#5a6472",
      font: "Comic Sans",
      radius: 40,
      logoUrl: "http://example.com/logo.png",
    });
    expect(errors.map((error) => error.field).sort()).toEqual(["brand", "brandContrast", "font", "logoUrl", "radius"]);
    expect(errors.find((error) => error.field === "radius")?.message).toBe("must be 0 to 24 pixels");
    expect(errorsOf({ ...storedTheme(DEFAULT_THEME), brand: undefined }).map((e) => e.field)).toEqual(["brand"]);
  });

  it("parses the shape alone for a preview of a theme that does not pass yet", () => {
    const failing = { ...storedTheme(DEFAULT_THEME), brandContrast: "#0b5d4b" };
    const shape = parseThemeShape(failing);
    expect(shape.ok).toBe(true);
    expect(shape.ok && contrastErrors(shape.theme).map((error) => error.field)).toEqual(["brandContrast"]);
    expect(parseThemeShape({ ...failing, radius: "big" })).toMatchObject({ ok: false, errors: [{ field: "radius" }] });
  });

  it("takes logos over https or from this site, nothing else", () => {
    const withLogo = (logoUrl: string) => validateTheme({ ...storedTheme(DEFAULT_THEME), logoUrl }).ok;
    expect(withLogo("https://cdn.example.com/logo.svg")).toBe(true);
    expect(withLogo("/partners/logo.svg")).toBe(true);
    expect(withLogo("//evil.example/logo.svg")).toBe(false);
    expect(withLogo("/\\evil.example/logo.svg")).toBe(false);
    expect(withLogo("javascript:alert(1)")).toBe(false);
    expect(withLogo("data:image/svg+xml,<svg/>")).toBe(false);
    expect(withLogo("https://user:pass@example.com/logo.svg")).toBe(false);
    expect(withLogo("/partners/../secret")).toBe(false);
    expect(withLogo("/a b.svg")).toBe(false);
  });

  it("derives hover colours that keep their contrast", () => {
    for (const theme of [
      DEFAULT_THEME,
      DEMO_BLUE_THEME,
      { ...DEFAULT_THEME, brand: "#fde047", brandContrast: "#1c1917", surface: "#ffffff" },
    ]) {
      // Hover: the button's shade moves away from its text colour.
      expect(contrastRatio(brandStrong(theme), theme.brandContrast)).toBeGreaterThanOrEqual(
        contrastRatio(theme.brand, theme.brandContrast),
      );
    }
    for (const theme of [DEFAULT_THEME, DEMO_BLUE_THEME]) {
      expect(contrastRatio(brandSoft(theme), theme.brand)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("writes the CSS variables of the Tailwind theme, and nothing a value could break out of", () => {
    const css = themeCss(DEMO_BLUE_THEME);
    expect(css.startsWith(":root{--color-brand:#1d4ed8;")).toBe(true);
    expect(css).toContain("--color-canvas:#eef2f8");
    expect(css).toContain("--radius-card:4px");
    expect(css).toContain("--font-sans:Seravek");
    expect(themeCss(DEMO_BLUE_THEME, ".preview")).toMatch(/^\.preview\{/);
    expect(themeVariables(DEFAULT_THEME).map(([name]) => name)).toContain("--color-brand-soft");
    // Only validated values reach the CSS: no braces, no semicolons inside values, no url().
    for (const [, value] of themeVariables(DEMO_BLUE_THEME)) expect(value).not.toMatch(/[{};]|url\(/);
  });

  it("stores as strings and reads back; an invalid stored theme counts as none; versions follow the content", () => {
    const stored = storedTheme(DEMO_BLUE_THEME);
    expect(stored.radius).toBe("4");
    expect(parseStoredTheme(stored)).toEqual(DEMO_BLUE_THEME);
    expect(parseStoredTheme(null)).toBeUndefined();
    expect(parseStoredTheme({ ...stored, brandContrast: "#1d4ed8" })).toBeUndefined();
    expect(themeVersion(DEMO_BLUE_THEME)).toBe(themeVersion({ ...DEMO_BLUE_THEME }));
    expect(themeVersion(DEMO_BLUE_THEME)).not.toBe(themeVersion({ ...DEMO_BLUE_THEME, radius: 5 }));
  });
});
