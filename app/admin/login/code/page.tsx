import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { PlainFrame } from "@/components/admin/plain-frame";
import { SecurityForm } from "@/components/admin/security/security-form";
import { ENROL_PATH, isReturnPath, landingPath, requireStaffSession } from "@/lib/identity/staff";
import { getAdminMessages } from "@/lib/i18n/admin-messages";
import { getLocale } from "@/lib/i18n/server";
import { signOutAction } from "../../actions";
import { secondFactorAction } from "./actions";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata(): Promise<Metadata> {
  return { title: getAdminMessages(await getLocale()).meta.code };
}

/** The sign-in's second step: the code from the authenticator app (or a recovery code). */
export default async function SecondFactorPage({ searchParams }: Props) {
  const query = await searchParams;
  const next = isReturnPath(query.next) ? query.next : undefined;
  const staff = await requireStaffSession(next);
  if (staff.stage === "full") redirect(landingPath(staff.user.role, next));
  if (staff.stage === "enrol") redirect(ENROL_PATH);
  const locale = await getLocale();
  const m = getAdminMessages(locale);
  const path = next ? `/admin/login/code?next=${encodeURIComponent(next)}` : "/admin/login/code";
  const t = m.secondFactor;
  return (
    <PlainFrame m={m} actions={{ locale, path, signOut: signOutAction }}>
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold">{t.title}</h1>
        <p className="text-muted">{t.intro}</p>
      </div>
      <section aria-label={t.title} className="rounded-card bg-surface p-5 shadow-sm">
        <SecurityForm
          action={secondFactorAction}
          page={path}
          hidden={next ? { next } : {}}
          fields={[{ name: "code", label: t.code, hint: t.codeHint, type: "text", autoComplete: "one-time-code", code: true }]}
          text={{ submit: t.submit, submitting: t.submitting, summaryTitle: t.summaryTitle, errors: t.errors }}
        />
      </section>
    </PlainFrame>
  );
}
