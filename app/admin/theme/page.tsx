import type { Metadata } from "next";
import { AdminPage } from "@/app/admin/admin-page";
import { Notice } from "@/components/ui/notice";
import { ThemePreview } from "@/components/theme/theme-preview";
import { requireStaff } from "@/lib/backoffice/staff";
import { getAdminMessages } from "@/lib/i18n/admin-messages";
import { getLocale } from "@/lib/i18n/server";
import { partnerTheme } from "@/lib/theme/store";
import { contrastErrors, DEFAULT_THEME, parseThemeShape, THEME_COLORS, THEME_FONTS, type Theme } from "@/lib/theme/theme";
import { saveThemeAction } from "./actions";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata(): Promise<Metadata> {
  return { title: getAdminMessages(await getLocale()).meta.theme };
}

const CONTROL = "block min-h-11 w-full rounded-md border-2 border-line bg-surface px-3 py-2 text-base text-ink";

/**
 * The partner's white-label theme: the form, a preview of what is typed (a GET, so it needs no
 * JavaScript and can be shared), and saving, which refuses a theme that fails the contrast checks.
 */
export default async function ThemePage({ searchParams }: Props) {
  const query = await searchParams;
  const staff = await requireStaff("/admin/theme");
  const locale = await getLocale();
  const m = getAdminMessages(locale);
  const saved = partnerTheme(staff.partner) ?? DEFAULT_THEME;

  const previewing = query.preview === "1";
  // As the save action reads the form: only the theme's fields, an empty one meaning "not set".
  const typed = Object.fromEntries(
    Object.entries(query).filter((entry): entry is [string, string] => entry[0] !== "preview" && typeof entry[1] === "string" && entry[1].trim() !== ""),
  );
  const shape = previewing ? parseThemeShape(typed) : ({ ok: true, theme: saved } as const);
  const theme: Theme = shape.ok ? shape.theme : saved;
  const errors = shape.ok ? contrastErrors(shape.theme) : shape.errors;
  const values: Record<string, string> = previewing ? typed : Object.fromEntries(Object.entries(saved).map(([k, v]) => [k, String(v ?? "")]));

  return (
    <AdminPage staff={staff} locale={locale} m={m} path="/admin/theme" section="theme">
      <div className="flex flex-col gap-6">
        <h1 className="text-3xl font-bold">{m.theme.title}</h1>
        <p>{m.theme.intro}</p>
        {query.saved === "1" ? <Notice tone="success">{m.theme.saved}</Notice> : null}
        {errors.length > 0 ? (
          <section aria-labelledby="theme-errors" className="rounded-card border-4 border-danger bg-surface p-4">
            <h2 id="theme-errors" className="text-lg font-bold">
              {m.theme.errorsTitle}
            </h2>
            <ul className="mt-2 list-disc pl-5">
              {errors.map((error) => (
                <li key={`${error.field}-${error.message}`}>{error.message}</li>
              ))}
            </ul>
          </section>
        ) : null}
        <form method="get" action="/admin/theme" className="flex flex-col gap-4">
          <input type="hidden" name="preview" value="1" />
          <div className="grid gap-4 sm:grid-cols-2">
            {THEME_COLORS.map((color) => (
              <label key={color} className="flex flex-col gap-1 font-semibold">
                {m.theme.colors[color]}
                <input name={color} defaultValue={values[color] ?? ""} pattern="#[0-9a-fA-F]{6}" className={CONTROL} />
              </label>
            ))}
            <label className="flex flex-col gap-1 font-semibold">
              {m.theme.font}
              <select name="font" defaultValue={values.font ?? DEFAULT_THEME.font} className={CONTROL}>
                {THEME_FONTS.map((font) => (
                  <option key={font} value={font}>
                    {font}
                  </option>
                ))}
              </select>
            </label>
            <label className="flex flex-col gap-1 font-semibold">
              {m.theme.radius}
              <input name="radius" type="number" min={0} max={24} defaultValue={values.radius ?? ""} className={CONTROL} />
            </label>
            <label className="flex flex-col gap-1 font-semibold sm:col-span-2">
              {m.theme.logoUrl}
              <input name="logoUrl" defaultValue={values.logoUrl ?? ""} className={CONTROL} />
            </label>
          </div>
          <div className="flex flex-wrap gap-3">
            <button type="submit" className="inline-flex min-h-11 items-center rounded-md border-2 border-brand bg-surface px-5 font-semibold text-brand">
              {m.theme.preview}
            </button>
            <button
              type="submit"
              formAction={saveThemeAction}
              className="inline-flex min-h-11 items-center rounded-md bg-brand px-5 font-semibold text-brand-contrast"
            >
              {m.theme.save}
            </button>
          </div>
        </form>
        <section aria-label={m.theme.previewTitle}>
          <ThemePreview theme={theme} partnerName={staff.partner.name} locale={locale} errors={errors} />
        </section>
      </div>
    </AdminPage>
  );
}
