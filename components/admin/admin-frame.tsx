import type { ReactNode } from "react";
import { ConsoleFrame } from "@/components/ui/console-frame";
import { Button } from "@/components/ui/button";
import { SelectField } from "@/components/ui/field";
import { groupAgencies } from "@/lib/identity/agencies";
import { can, type Permission } from "@/lib/identity/permissions";
import type { StaffContext } from "@/lib/identity/staff";
import type { AdminMessages } from "@/lib/i18n/admin-messages";
import type { Locale } from "@/lib/i18n/locales";
import { FrameActions } from "./frame-actions";
import { SectionNav } from "@/components/ui/section-nav";

export type AdminSection =
  | "health"
  | "simulator"
  | "paymentLinks"
  | "operations"
  | "notifications"
  | "apiSecrets"
  | "theme"
  | "security"
  | "audit"
  | "staff"
  | "dataRequests";

/** The sections, each shown to whoever may open it (permissions.ts): an agent sees no administrator's pages. */
const SECTIONS: { key: AdminSection; href: string; permission?: Permission }[] = [
  { key: "health", href: "/admin" },
  { key: "simulator", href: "/admin/simulator" },
  { key: "paymentLinks", href: "/admin/payment-links/new", permission: "payment-links" },
  { key: "operations", href: "/admin/operations", permission: "operations" },
  { key: "notifications", href: "/admin/notifications", permission: "settings" },
  { key: "apiSecrets", href: "/admin/settings/api-secrets", permission: "api-secrets" },
  { key: "theme", href: "/admin/theme", permission: "theme" },
  { key: "staff", href: "/admin/staff", permission: "manage-staff" },
  { key: "audit", href: "/admin/audit", permission: "audit" },
  { key: "dataRequests", href: "/admin/data-requests", permission: "data-requests" },
  { key: "security", href: "/admin/security" },
];

/** The server actions the frame's forms post to (app/admin/actions.ts), handed in by the page. */
export interface AdminFrameActions {
  signOut: (formData: FormData) => Promise<void>;
  switchAgency: (formData: FormData) => Promise<void>;
}

export interface AdminFrameProps {
  actions: AdminFrameActions;
  staff: StaffContext;
  locale: Locale;
  m: AdminMessages;
  /** This page's path and query: where the language switch and the agency switch come back to. */
  path: string;
  section: AdminSection | undefined;
  children: ReactNode;
}

/**
 * Every signed-in back-office page: whose back-office it is, the agency switcher (a partner with its
 * own group key only), the sections, the language and signing out. All plain links and forms.
 */
export async function AdminFrame({ actions, staff, locale, m, path, section, children }: AdminFrameProps) {
  const agencies = await groupAgencies(staff);
  return (
    <ConsoleFrame
      title={staff.partner.name}
      subtitle={
        <>
          {m.common.backOffice} · {m.common.signedInAs(staff.user.name)}
        </>
      }
      actions={<FrameActions m={m} locale={locale} path={path} signOut={actions.signOut} />}
      nav={
        <>
          <SectionNav
            label={m.common.navLabel}
            items={SECTIONS.filter(({ permission }) => !permission || can(staff.user, permission)).map(({ key, href }) => ({
              key,
              href,
              text: m.common.nav[key],
              current: section === key,
            }))}
          />
          {agencies?.ok ? (
            <form action={actions.switchAgency} className="flex flex-wrap items-end gap-2">
              <input type="hidden" name="returnTo" value={path} />
              <SelectField
                id="agency-switcher"
                name="agencyId"
                label={m.common.agencyLabel}
                compact
                defaultValue={staff.agency.id?.toString()}
                options={agencies.agencies.map((agency) => ({
                  value: String(agency.id),
                  label: m.common.agencyOption(agency.tradeName, agency.id),
                }))}
              />
              <Button variant="secondary" size="sm">
                {m.common.switchAgency}
              </Button>
            </form>
          ) : agencies ? (
            <p className="text-sm text-muted">{m.common.agenciesUnavailable}</p>
          ) : null}
        </>
      }
    >
      {children}
    </ConsoleFrame>
  );
}
