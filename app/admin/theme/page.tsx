import type { Metadata } from "next";
import { AdminPage } from "@/app/admin/admin-page";
import { Button } from "@/components/ui/button";
import { ErrorSummary } from "@/components/ui/error-summary";
import { SelectField, TextField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { ThemePreview } from "@/components/theme/theme-preview";
import { requirePermission } from "@/lib/identity/staff";
import { getAdminMessages } from "@/lib/i18n/admin-messages";
import { getLocale } from "@/lib/i18n/server";
import { partnerTheme } from "@/lib/theme/store";
import { contrastErrors, DEFAULT_THEME, parseThemeShape, THEME_COLORS, THEME_FONTS, type Theme } from "@/lib/theme/theme";
import { saveThemeAction } from "./actions";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata(): Promise<Metadata> {
  return { title: getAdminMessages(await getLocale()).meta.theme };
}

/**
 * The partner's white-label theme: the form, a preview of what is typed (a GET, so it needs no
 * JavaScript and can be shared), and saving, which refuses a theme that fails the contrast checks.
 */
export default async function ThemePage({ searchParams }: Props) {
  const query = await searchParams;
  const staff = await requirePermission("theme", "/admin/theme");
  const locale = await getLocale();
  const m = getAdminMessages(locale);
  const saved = partnerTheme(staff.partner) ?? DEFAULT_THEME;

  const previewing = query.preview === "1";
  // As the save action reads the form: only the theme's fields, an empty one meaning "not set".
  const typed = Object.fromEntries(
    Object.entries(query).filter(
      (entry): entry is [string, string] => entry[0] !== "preview" && typeof entry[1] === "string" && entry[1].trim() !== "",
    ),
  );
  const shape = previewing ? parseThemeShape(typed) : ({ ok: true, theme: saved } as const);
  const theme: Theme = shape.ok ? shape.theme : saved;
  const errors = shape.ok ? contrastErrors(shape.theme) : shape.errors;
  const values: Record<string, string> = previewing
    ? typed
    : Object.fromEntries(Object.entries(saved).map(([k, v]) => [k, String(v ?? "")]));
  // What is typed (or saved), in bold as this form has always shown it (its inputs sat inside bold labels).
  const field = (name: string) => ({ id: `theme-${name}`, name, defaultValue: values[name] ?? "", controlClassName: "font-semibold" });

  return (
    <AdminPage staff={staff} locale={locale} m={m} path="/admin/theme" section="theme">
      <div className="flex flex-col gap-6">
        <h1 className="text-3xl font-bold">{m.theme.title}</h1>
        <p>{m.theme.intro}</p>
        {query.saved === "1" ? <Notice tone="success">{m.theme.saved}</Notice> : null}
        {errors.length > 0 ? (
          <ErrorSummary titleId="theme-errors" title={m.theme.errorsTitle}>
            <ul className="mt-2 list-disc pl-5">
              {errors.map((error) => (
                <li key={`${error.field}-${error.message}`}>{error.message}</li>
              ))}
            </ul>
          </ErrorSummary>
        ) : null}
        <form method="get" action="/admin/theme" className="flex flex-col gap-4">
          <input type="hidden" name="preview" value="1" />
          <div className="grid gap-4 sm:grid-cols-2">
            {THEME_COLORS.map((color) => (
              <TextField key={color} {...field(color)} label={m.theme.colors[color]} pattern="#[0-9a-fA-F]{6}" />
            ))}
            <SelectField
              {...field("font")}
              label={m.theme.font}
              defaultValue={values.font ?? DEFAULT_THEME.font}
              options={THEME_FONTS.map((font) => ({ value: font, label: font }))}
            />
            <TextField {...field("radius")} label={m.theme.radius} type="number" min={0} max={24} />
            <TextField {...field("logoUrl")} label={m.theme.logoUrl} className="sm:col-span-2" />
          </div>
          <div className="flex flex-wrap gap-3">
            <Button variant="secondary" stretch={false}>
              {m.theme.preview}
            </Button>
            <Button formAction={saveThemeAction} stretch={false}>
              {m.theme.save}
            </Button>
          </div>
        </form>
        <section aria-label={m.theme.previewTitle}>
          <ThemePreview theme={theme} partnerName={staff.partner.name} locale={locale} errors={errors} />
        </section>
      </div>
    </AdminPage>
  );
}
