import "server-only";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db";
import { forgetPartner } from "@/lib/partners/cache";
import { partners, type PartnerRow } from "@/lib/db/schema";
import { parseStoredTheme, storedTheme, THEME_COLORS, validateTheme, type Theme, type ThemeValidation } from "./theme";

/**
 * A partner's theme in the database (partners.theme). Setting one validates it first (shape and
 * contrast): an invalid theme is never stored, and the errors name each field for the form.
 */

/**
 * Themes already validated, by the stored object they came from: a cached partner row
 * (lib/partners/cache.ts) keeps the same object, so its theme is validated (zod and the contrast
 * checks) once, not on every page.
 */
const parsed = new WeakMap<object, { theme: Theme | undefined }>();

/** The partner's theme; none (null, or one stored by hand that no longer passes) is the default look. */
export function partnerTheme(partner: Pick<PartnerRow, "theme">): Theme | undefined {
  const stored = partner.theme;
  if (!stored) return undefined;
  let known = parsed.get(stored);
  if (!known) {
    known = { theme: parseStoredTheme(stored) };
    parsed.set(stored, known);
  }
  return known.theme;
}

/** Validates and stores a theme. Answers the validation: on errors, nothing is written. */
export async function savePartnerTheme(db: Db, partnerId: string, input: unknown): Promise<ThemeValidation> {
  const result = validateTheme(input);
  if (!result.ok) return result;
  const updated = await db
    .update(partners)
    .set({ theme: storedTheme(result.theme) })
    .where(eq(partners.id, partnerId))
    .returning({ id: partners.id });
  if (updated.length === 0) return { ok: false, errors: [{ field: "(partner)", message: "is not a partner" }] };
  // This instance's checkout shows it at once; others within PARTNER_CACHE_TTL_MS.
  forgetPartner(partnerId);
  return result;
}

const THEME_FIELDS = [...THEME_COLORS, "font", "radius", "logoUrl"] as const;

/**
 * A theme form's fields as validateTheme takes them: strings, an empty logo meaning none. For the
 * back-office's server action: `savePartnerTheme(db, partnerId, themeFromForm(formData))`.
 */
export function themeFromForm(formData: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const field of THEME_FIELDS) {
    const value = formData.get(field);
    if (typeof value === "string" && value.trim() !== "") values[field] = value.trim();
  }
  return values;
}
