"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { staffAction } from "@/lib/backoffice/staff-action";
import { recordAudit } from "@/lib/audit/audit";
import { requestIp } from "@/lib/identity/staff";
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

const saveTheme = staffAction(
  themeForm,
  async (staff, _input, formData) => {
    const result = await savePartnerTheme(staff.db, staff.partner.id, themeFromForm(formData));
    // audit: who changed the partner's look, and whether it was saved.
    await recordAudit(staff.db, {
      kind: "theme_changed",
      result: result.ok ? "ok" : "refused",
      partnerId: staff.partner.id,
      staff: { id: staff.user.id, name: staff.user.name },
      ip: await requestIp(),
    });
    return result;
  },
  { permission: "theme" },
);

/** Saves the partner's theme if it passes validation (contrast included); otherwise shows why. */
export async function saveThemeAction(formData: FormData): Promise<void> {
  const result = await saveTheme(undefined, formData);
  if ("ok" in result && result.ok) redirect("/admin/theme?saved=1");
  // Not saved: back to the preview of what was typed (colours are not personal data), errors shown.
  const query = new URLSearchParams({ preview: "1", ...themeFromForm(formOf(formData)) });
  redirect(`/admin/theme?${query.toString()}`);
}
