import { z } from "zod";
import { contrastRatio, formatRatio, isHexColor, mix, relativeLuminance } from "./contrast";

/**
 * A partner's white-label theme (docs/contributors/architecture.md, "Tenancy"): logo, colours, font and corner radius, applied as
 * CSS variables over the Tailwind theme of app/globals.css (`--color-brand` and friends). A theme is
 * checked when it is set: its shape (zod) and every pair of colours that meets on a checkout page
 * (WCAG AA: 4.5:1 for text, 3:1 for control edges and focus rings), against the partner's own
 * colours and against the fixed ones it cannot change (notices, errors, borders, focus).
 */

/** Local font stacks only: no web font is loaded (CSP `font-src 'self'`, no third-party request). */
export const FONT_STACKS = {
  system: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  humanist: 'Seravek, "Gill Sans Nova", Ubuntu, Calibri, "DejaVu Sans", source-sans-pro, sans-serif',
  geometric: 'Avenir, Montserrat, Corbel, "URW Gothic", source-sans-pro, sans-serif',
  grotesque: 'Inter, Roboto, "Helvetica Neue", "Arial Nova", "Nimbus Sans", Arial, sans-serif',
  rounded:
    'ui-rounded, "Hiragino Maru Gothic ProN", Quicksand, Comfortaa, Manjari, "Arial Rounded MT", Calibri, source-sans-pro, sans-serif',
  serif: 'Charter, "Bitstream Charter", "Sitka Text", Cambria, Georgia, serif',
} as const;
export type ThemeFont = keyof typeof FONT_STACKS;
export const THEME_FONTS = Object.keys(FONT_STACKS) as [ThemeFont, ...ThemeFont[]];

/** The colours a partner sets. */
export const THEME_COLORS = ["brand", "brandContrast", "ink", "surface", "canvas", "muted"] as const;
export type ThemeColor = (typeof THEME_COLORS)[number];

/**
 * The tokens of app/globals.css a theme does not change: status colours, borders, the focus ring.
 * Kept in step with the stylesheet by a unit test (theme.test.ts reads globals.css).
 */
export const FIXED_COLORS = {
  line: "#6b7480",
  focus: "#1d4ed8",
  danger: "#b42318",
  "danger-soft": "#fef3f2",
  "success-soft": "#ecfdf3",
  "warning-soft": "#fff7e6",
  "info-soft": "#eef4ff",
} as const;
type FixedColor = keyof typeof FIXED_COLORS;

const color = z
  .string({ error: "must be a colour like #0b5d4b" })
  .trim()
  .refine(isHexColor, "must be a colour like #0b5d4b")
  .transform((value) => value.toLowerCase());

/** https, or a path on this site ("/partners/logo.svg"): never http, data:, or another scheme. */
const logoUrl = z
  .string()
  .trim()
  .max(2048, "is too long")
  .refine((value) => {
    if (/^\/(?![/\\])[\w\-./%~]*$/.test(value)) return !value.split("/").includes("..");
    try {
      const url = new URL(value);
      return url.protocol === "https:" && url.username === "" && url.password === "";
    } catch {
      return false;
    }
  }, "must be an https:// address or a path on this site starting with /");

export const themeSchema = z.object({
  logoUrl: logoUrl.optional(),
  brand: color,
  brandContrast: color,
  ink: color,
  surface: color,
  canvas: color,
  muted: color,
  font: z.enum(THEME_FONTS, { error: `must be one of ${THEME_FONTS.join(", ")}` }).default("system"),
  radius: z.coerce
    .number({ error: "must be a number of pixels from 0 to 24" })
    .int("must be a whole number of pixels")
    .min(0, "must be 0 to 24 pixels")
    .max(24, "must be 0 to 24 pixels")
    .default(12),
});

export type Theme = z.output<typeof themeSchema>;

/** The checkout's own look (app/globals.css), as a theme: what a partner without one gets. */
export const DEFAULT_THEME: Theme = {
  brand: "#0b5d4b",
  brandContrast: "#ffffff",
  ink: "#1c2430",
  surface: "#ffffff",
  canvas: "#f4f6f8",
  muted: "#5a6472",
  font: "system",
  radius: 12,
};

export interface ThemeError {
  /** The theme field to change: `brand`, `logoUrl`, ... */
  field: string;
  message: string;
  /** For contrast errors: the ratio found and the one required. */
  ratio?: number;
  required?: number;
}

export type ThemeValidation = { ok: true; theme: Theme } | { ok: false; errors: ThemeError[] };

type Token = ThemeColor | FixedColor;

interface ContrastCheck {
  /** Background, then foreground, as the message names them: "brand/brandContrast". */
  pair: readonly [Token, Token];
  min: 4.5 | 3;
  /** The partner's field the error is about (the one of the two it can change). */
  field: ThemeColor;
  use: string;
}

/** Every pair of colours that meets on a checkout page (see the class names in components/). */
const CONTRAST_CHECKS: readonly ContrastCheck[] = [
  { pair: ["brand", "brandContrast"], min: 4.5, field: "brandContrast", use: "text on buttons" },
  { pair: ["surface", "brand"], min: 4.5, field: "brand", use: "links and outlined buttons" },
  { pair: ["surface", "ink"], min: 4.5, field: "ink", use: "text on cards" },
  { pair: ["canvas", "ink"], min: 4.5, field: "ink", use: "text on the page" },
  { pair: ["surface", "muted"], min: 4.5, field: "muted", use: "secondary text on cards" },
  { pair: ["canvas", "muted"], min: 4.5, field: "muted", use: "secondary text on the page" },
  { pair: ["info-soft", "ink"], min: 4.5, field: "ink", use: "text in information notices" },
  { pair: ["success-soft", "ink"], min: 4.5, field: "ink", use: "text in success notices" },
  { pair: ["warning-soft", "ink"], min: 4.5, field: "ink", use: "text in warnings" },
  { pair: ["danger-soft", "ink"], min: 4.5, field: "ink", use: "text in error notices" },
  { pair: ["surface", "danger"], min: 4.5, field: "surface", use: "error messages" },
  { pair: ["surface", "line"], min: 3, field: "surface", use: "edges of form fields" },
  { pair: ["surface", "focus"], min: 3, field: "surface", use: "focus ring on cards" },
  { pair: ["canvas", "focus"], min: 3, field: "canvas", use: "focus ring on the page" },
];

function tokenColor(theme: Theme, token: Token): string {
  return token in FIXED_COLORS ? FIXED_COLORS[token as FixedColor] : theme[token as ThemeColor];
}

/** The contrast errors of a well-formed theme (none: it passes WCAG AA everywhere it is used). */
export function contrastErrors(theme: Theme): ThemeError[] {
  const errors: ThemeError[] = [];
  for (const check of CONTRAST_CHECKS) {
    const [background, foreground] = check.pair;
    const ratio = contrastRatio(tokenColor(theme, background), tokenColor(theme, foreground));
    if (ratio < check.min) {
      errors.push({
        field: check.field,
        ratio,
        required: check.min,
        message: `${background}/${foreground} contrast ${formatRatio(ratio)} is below ${check.min}:1 (${check.use})`,
      });
    }
  }
  return errors;
}

/**
 * Only the shape of a theme (every field well-formed), not its contrast: what a preview needs to
 * show a theme that does not pass yet, next to its `contrastErrors`.
 */
export function parseThemeShape(input: unknown): ThemeValidation {
  const parsed = themeSchema.safeParse(input);
  if (parsed.success) return { ok: true, theme: parsed.data };
  return {
    ok: false,
    errors: parsed.error.issues.map((issue) => ({ field: issue.path.map(String).join(".") || "(theme)", message: issue.message })),
  };
}

/**
 * Checks a theme as a partner (or the back-office) sends it: every field's shape, then contrast.
 * Errors name the field, e.g. `{ field: "brandContrast", message: "brand/brandContrast contrast
 * 2.1:1 is below 4.5:1 (text on buttons)" }`.
 */
export function validateTheme(input: unknown): ThemeValidation {
  const shape = parseThemeShape(input);
  if (!shape.ok) return shape;
  const errors = contrastErrors(shape.theme);
  return errors.length > 0 ? { ok: false, errors } : shape;
}

// ---------------------------------------------------------------------------------------------
// As CSS

/** The hover shade of the brand: further from its text colour, so hover never lowers contrast. */
export function brandStrong(theme: Pick<Theme, "brand" | "brandContrast">): string {
  const textIsLighter = relativeLuminance(theme.brandContrast) > relativeLuminance(theme.brand);
  return mix(theme.brand, textIsLighter ? "#000000" : "#ffffff", 0.2);
}

/** A tint of the brand on the surface (hover behind brand text), light enough for 4.5:1. */
export function brandSoft(theme: Pick<Theme, "brand" | "surface">): string {
  for (let amount = 0.88; amount < 1; amount += 0.02) {
    const soft = mix(theme.brand, theme.surface, amount);
    if (contrastRatio(soft, theme.brand) >= 4.5) return soft;
  }
  return theme.surface;
}

/** The CSS custom properties a theme sets, as [name, value] pairs (values already validated). */
export function themeVariables(theme: Theme): [string, string][] {
  return [
    ["--color-brand", theme.brand],
    ["--color-brand-strong", brandStrong(theme)],
    ["--color-brand-contrast", theme.brandContrast],
    ["--color-brand-soft", brandSoft(theme)],
    ["--color-ink", theme.ink],
    ["--color-muted", theme.muted],
    ["--color-surface", theme.surface],
    ["--color-canvas", theme.canvas],
    ["--radius-card", `${theme.radius}px`],
    ["--radius-lg", `${Math.round((theme.radius * 2) / 3)}px`],
    ["--radius-md", `${Math.round(theme.radius / 2)}px`],
    ["--font-sans", FONT_STACKS[theme.font]],
  ];
}

/**
 * A rule setting the theme's variables on `selector` (`:root` for a checkout page). Unlayered, so
 * it wins over Tailwind's `@layer theme` whatever the order of the stylesheets.
 */
export function themeCss(theme: Theme, selector = ":root"): string {
  return `${selector}{${themeVariables(theme)
    .map(([name, value]) => `${name}:${value}`)
    .join(";")}}\n`;
}

// ---------------------------------------------------------------------------------------------
// Stored form (partners.theme is jsonb Record<string, string>)

export function storedTheme(theme: Theme): Record<string, string> {
  const { logoUrl, radius, ...rest } = theme;
  return { ...rest, radius: String(radius), ...(logoUrl ? { logoUrl } : {}) };
}

/** A stored theme read back; an invalid one (edited by hand, older rules) counts as none. */
export function parseStoredTheme(stored: Record<string, string> | null | undefined): Theme | undefined {
  if (!stored) return undefined;
  const result = validateTheme(stored);
  return result.ok ? result.theme : undefined;
}

/** A short, stable fingerprint of a theme: the version in its stylesheet's URL (FNV-1a, 32 bits). */
export function themeVersion(theme: Theme): string {
  const text = JSON.stringify(storedTheme(theme), Object.keys(storedTheme(theme)).sort());
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}
