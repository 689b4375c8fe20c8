import type { Metadata } from "next";
import { AdminPage } from "@/app/admin/admin-page";
import { SecurityForm } from "@/components/admin/security/security-form";
import { TextLink } from "@/components/ui/text-link";
import { requireStaff } from "@/lib/identity/staff";
import { getAdminMessages } from "@/lib/i18n/admin-messages";
import { getLocale } from "@/lib/i18n/server";
import { changePasswordAction } from "./actions";

const PATH = "/admin/security/password";

export async function generateMetadata(): Promise<Metadata> {
  return { title: getAdminMessages(await getLocale()).meta.password };
}

/** The password change: the current password first; every other session ends with it. */
export default async function PasswordPage() {
  const staff = await requireStaff(PATH);
  const locale = await getLocale();
  const m = getAdminMessages(locale);
  const t = m.security;
  return (
    <AdminPage staff={staff} locale={locale} m={m} path={PATH} section="security">
      <div className="flex max-w-xl flex-col gap-6">
        <h1 className="text-3xl font-bold">{t.passwordTitle}</h1>
        <p>{t.passwordIntro}</p>
        <section aria-label={t.passwordTitle} className="rounded-card bg-surface p-5 shadow-sm">
          <SecurityForm
            action={changePasswordAction}
            page={PATH}
            fields={[
              { name: "current", label: t.current, type: "password", autoComplete: "current-password" },
              { name: "next", label: t.newPassword, hint: t.newPasswordHint, type: "password", autoComplete: "new-password" },
              { name: "confirm", label: t.confirm, type: "password", autoComplete: "new-password" },
            ]}
            text={t.passwordForm}
          />
        </section>
        <p>
          <TextLink href="/admin/security">{t.back}</TextLink>
        </p>
      </div>
    </AdminPage>
  );
}
