import type { Locale } from "@/lib/i18n/locales";
import { getMessages } from "@/lib/i18n/server";
import type { Theme, ThemeError } from "@/lib/theme/theme";
import { previewScope, previewStylesheetHref } from "@/lib/theme/urls";

/**
 * A partner's theme on a miniature checkout, for the back-office (the theme page of a partner):
 * header with the logo, progress, a plan with its buttons, a notice and an error text, each in the
 * colours they take on the real pages. Works for any well-formed theme, saved or not, failing or
 * not: the theme's variables come scoped to this box from /embed/theme.css?preview=1&… (no inline
 * style, which the CSP would refuse after a server action). Pass the contrast errors of
 * validateTheme to list them under the preview.
 */
export function ThemePreview({
  theme,
  partnerName,
  locale,
  errors = [],
}: {
  theme: Theme;
  partnerName: string;
  locale: Locale;
  errors?: readonly ThemeError[];
}) {
  const m = getMessages(locale);
  const button = "inline-flex min-h-11 items-center justify-center rounded-lg px-5 py-2 text-base font-semibold";
  return (
    <figure className="flex flex-col gap-2">
      <link rel="stylesheet" href={previewStylesheetHref(theme)} precedence="default" />
      <figcaption className="font-semibold">{m.theme.previewLabel(partnerName)}</figcaption>
      <div
        data-theme-preview={previewScope(theme)}
        className="overflow-hidden rounded-card border border-divider bg-canvas font-sans text-ink"
      >
        <div className="flex items-center gap-3 border-b border-divider bg-surface px-4 py-2">
          {theme.logoUrl ? (
            // eslint-disable-next-line @next/next/no-img-element -- the partner's logo as the checkout shows it
            <img src={theme.logoUrl} alt="" className="h-10 w-auto max-w-32 object-contain" />
          ) : null}
          <div>
            <p className="font-bold text-brand">{partnerName}</p>
            <p className="text-sm text-muted">{m.common.checkoutKind}</p>
          </div>
        </div>
        <div className="flex flex-col gap-3 p-4">
          <div aria-hidden="true" className="grid grid-cols-3 gap-2">
            <span className="h-1.5 rounded-full bg-brand" />
            <span className="h-1.5 rounded-full bg-brand" />
            <span className="h-1.5 rounded-full bg-divider" />
          </div>
          <p className="text-xl font-bold">{m.offers.title}</p>
          <p className="text-muted">{m.theme.sampleIntro}</p>
          <div className="flex flex-col gap-3 rounded-card border-2 border-divider bg-surface p-4 shadow-sm">
            <p>
              <span className="text-2xl font-bold">{m.theme.sampleMonthly}</span> <span className="text-muted">{m.offers.perMonth}</span>
            </p>
            <p className="text-sm font-semibold text-danger">{m.theme.sampleError}</p>
            <div className="flex flex-wrap gap-2">
              <span className={`${button} bg-brand text-brand-contrast`}>{m.offers.choose}</span>
              <span className={`${button} border-2 border-brand bg-surface text-brand`}>{m.common.backToPartner(partnerName)}</span>
            </div>
          </div>
          <div className="rounded-card border-l-4 border-brand bg-info-soft px-4 py-3">{m.theme.sampleNotice}</div>
        </div>
      </div>
      {errors.length > 0 ? (
        <ul className="list-disc space-y-1 pl-5 text-sm">
          {errors.map((error) => (
            <li key={`${error.field}:${error.message}`}>
              <span className="font-semibold">{error.field}</span>: {error.message}
            </li>
          ))}
        </ul>
      ) : null}
    </figure>
  );
}
