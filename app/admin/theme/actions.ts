"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { staffAction } from "@/lib/backoffice/actions";
import { savePartnerTheme, themeFromForm } from "@/lib/theme/store";
import { formOf } from "@/lib/validated-action";
import { safeText } from "@/lib/validation/text";

const field = z.string().check(safeText()).max(200, "is too long").optional();
const themeForm = z.object({
  brand: field,
  brandContrast: field,
  ink: field,
  surface: field,
  canvas: field,
  muted: field,
  font: field,
  radius: field,
  logoUrl: field,
});

const saveTheme = staffAction(themeForm, async (staff, _input, formData) =>
  savePartnerTheme(staff.db, staff.partner.id, themeFromForm(formData)),
);

/** Saves the partner's theme if it passes validation (contrast included); otherwise shows why. */
export async function saveThemeAction(formData: FormData): Promise<void> {
  const result = await saveTheme(undefined, formData);
  if ("ok" in result && result.ok) redirect("/admin/theme?saved=1");
  // Not saved: back to the preview of what was typed (colours are not personal data), errors shown.
  const query = new URLSearchParams({ preview: "1", ...themeFromForm(formOf(formData)) });
  redirect(`/admin/theme?${query.toString()}`);
}
