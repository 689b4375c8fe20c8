import type { ReactNode } from "react";
import { ConsoleFrame } from "@/components/ui/console-frame";
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
    <ConsoleFrame
      title={m.common.console}
      subtitle={m.common.signedInAs(operator.user.name)}
      actions={<FrameActions m={admin} locale={locale} path={path} signOut={signOut} />}
      nav={
        <>
          <SectionNav
            label={m.common.navLabel}
            items={SECTIONS.map(({ key, href }) => ({ key, href, text: m.common.nav[key], current: section === key }))}
          />
        </>
      }
    >
      {children}
    </ConsoleFrame>
  );
}
