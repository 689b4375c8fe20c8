import Link from "next/link";
import type { ReactNode } from "react";
import { signOutAction, switchAgencyAction } from "@/app/admin/actions";
import { LanguageSwitcher } from "@/components/checkout/language-switcher";
import { groupAgencies } from "@/lib/backoffice/agencies";
import type { StaffContext } from "@/lib/backoffice/staff";
import type { AdminMessages } from "@/lib/i18n/admin-messages";
import type { Locale } from "@/lib/i18n/locales";

export type AdminSection = "health" | "simulator" | "operations" | "theme";

const SECTIONS: { key: AdminSection; href: string }[] = [
  { key: "health", href: "/admin" },
  { key: "simulator", href: "/admin/simulator" },
  { key: "operations", href: "/admin/operations" },
  { key: "theme", href: "/admin/theme" },
];

const BUTTON =
  "inline-flex min-h-11 items-center justify-center rounded-md border-2 border-brand bg-surface px-3 text-sm font-semibold text-brand hover:bg-brand-soft";

/**
 * Every signed-in back-office page: whose back-office it is, the agency switcher (a partner with its
 * own group key only), the sections, the language and signing out. All plain links and forms.
 */
export async function AdminFrame({
  staff,
  locale,
  m,
  path,
  section,
  children,
}: {
  staff: StaffContext;
  locale: Locale;
  m: AdminMessages;
  /** This page's path and query: where the language switch and the agency switch come back to. */
  path: string;
  section: AdminSection | undefined;
  children: ReactNode;
}) {
  const agencies = await groupAgencies(staff);
  return (
    <>
      <header className="border-b border-divider bg-surface">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 py-2">
          <div className="min-w-0 py-1">
            <p className="font-bold text-brand">{staff.partner.name}</p>
            <p className="text-sm text-muted">
              {m.common.backOffice} · {m.common.signedInAs(staff.user.name)}
            </p>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <LanguageSwitcher locale={locale} returnTo={path} label={m.common.switchLanguage} />
            <form action={signOutAction}>
              <button type="submit" className={BUTTON}>
                {m.common.signOut}
              </button>
            </form>
          </div>
        </div>
        <div className="mx-auto flex max-w-6xl flex-wrap items-end justify-between gap-x-6 gap-y-3 px-4 pb-3">
          <nav aria-label={m.common.navLabel}>
            <ul className="flex flex-wrap gap-1">
              {SECTIONS.map(({ key, href }) => (
                <li key={key}>
                  <Link
                    href={href}
                    aria-current={section === key ? "page" : undefined}
                    className="inline-flex min-h-11 items-center rounded-md px-3 font-semibold text-brand underline-offset-4 hover:bg-brand-soft aria-[current=page]:bg-brand aria-[current=page]:text-brand-contrast"
                  >
                    {m.common.nav[key]}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          {agencies?.ok ? (
            <form action={switchAgencyAction} className="flex flex-wrap items-end gap-2">
              <input type="hidden" name="returnTo" value={path} />
              <div className="flex flex-col gap-1">
                <label htmlFor="agency-switcher" className="text-sm font-semibold">
                  {m.common.agencyLabel}
                </label>
                <select
                  id="agency-switcher"
                  name="agencyId"
                  defaultValue={staff.agency.id}
                  className="block min-h-11 rounded-md border-2 border-line bg-surface px-3 py-2 text-base text-ink"
                >
                  {agencies.agencies.map((agency) => (
                    <option key={agency.id} value={agency.id}>
                      {m.common.agencyOption(agency.tradeName, agency.id)}
                    </option>
                  ))}
                </select>
              </div>
              <button type="submit" className={BUTTON}>
                {m.common.switchAgency}
              </button>
            </form>
          ) : agencies ? (
            <p className="text-sm text-muted">{m.common.agenciesUnavailable}</p>
          ) : null}
        </div>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-6 sm:py-8">
        {children}
      </main>
    </>
  );
}
