import { PlainFrame } from "@/components/admin/plain-frame";
import { RefusalNotice } from "@/components/admin/refusal-notice";
import { getAdminMessages } from "@/lib/i18n/admin-messages";
import { getLocale } from "@/lib/i18n/server";
import { staffForAction } from "@/lib/identity/staff";
import { AdminPage } from "./admin-page";

export type Refusal = "notFound" | "forbidden";

/**
 * The back-office's 404 and 403 pages (not-found.tsx, forbidden.tsx): in the back-office's frame
 * for a signed-in member, so they stay where they were and keep their menu; the plain frame, with
 * the way to sign in, for anyone else. Never a redirect: Next renders a segment's boundaries
 * beside its pages, so this reads the request's session as they do (once per request) and nothing more.
 */
export async function AdminRefusal({ refusal }: { refusal: Refusal }) {
  const locale = await getLocale();
  const m = getAdminMessages(locale);
  const t = m.common.refusals;
  const staff = await staffForAction();
  const body = (
    <RefusalNotice
      title={t[refusal].title}
      body={t[refusal].body}
      href={staff ? "/admin" : "/admin/login"}
      linkText={staff ? t.home : t.signIn}
    />
  );
  if (!staff) return <PlainFrame m={m}>{body}</PlainFrame>;
  return (
    <AdminPage staff={staff} locale={locale} m={m} path="/admin" section={undefined}>
      {body}
    </AdminPage>
  );
}
