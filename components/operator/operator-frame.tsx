import type { ReactNode } from "react";
import { FrameActions } from "@/components/admin/frame-actions";
import type { AdminMessages } from "@/lib/i18n/admin-messages";
import type { Locale } from "@/lib/i18n/locales";
import type { OperatorMessages } from "@/lib/i18n/operator-messages";
import { SectionNav } from "@/components/ui/section-nav";

export type OperatorSection = "home" | "partners";

const SECTIONS: { key: OperatorSection; href: string }[] = [
  { key: "home", href: "/operator" },
  { key: "partners", href: "/operator/partners" },
];

export interface OperatorFrameProps {
  /** The operator signed in (lib/operator/session.ts). */
  operator: { user: { name: string } };
  locale: Locale;
  m: OperatorMessages;
  /** The back-office's texts the shared top right uses (language, sign-out). */
  admin: AdminMessages;
  /** This page's path and query: where the language switch comes back to. */
  path: string;
  section: OperatorSection | undefined;
  signOut: (formData: FormData) => Promise<void>;
  children: ReactNode;
}

/**
 * Every signed-in page of the operator's console: whose console it is, its sections, the language
 * and signing out. All plain links and forms. Not a partner's frame: no partner, no agency.
 */
export function OperatorFrame({ operator, locale, m, admin, path, section, signOut, children }: OperatorFrameProps) {
  return (
    <>
      <header className="border-b border-divider bg-surface">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 py-2">
          <div className="min-w-0 py-1">
            <p className="font-bold text-brand">{m.common.console}</p>
            <p className="text-sm text-muted">{m.common.signedInAs(operator.user.name)}</p>
          </div>
          <FrameActions m={admin} locale={locale} path={path} signOut={signOut} />
        </div>
        <div className="mx-auto flex max-w-6xl px-4 pb-3">
          <SectionNav
            label={m.common.navLabel}
            items={SECTIONS.map(({ key, href }) => ({ key, href, text: m.common.nav[key], current: section === key }))}
          />
        </div>
      </header>
      <main id="main" tabIndex={-1} className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-6 sm:py-8">
        {children}
      </main>
    </>
  );
}
