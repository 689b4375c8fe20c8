import { PlainFrame } from "@/components/admin/plain-frame";
import { RefusalNotice } from "@/components/admin/refusal-notice";
import { getAdminMessages } from "@/lib/i18n/admin-messages";
import { getLocale } from "@/lib/i18n/server";
import { signedInOperator } from "@/lib/operator/session";
import { OperatorPage } from "./operator-page";

/**
 * The console's 404: an address that does not exist, a partner that does not, or (for a partner's
 * staff, lib/operator/session.ts) the console itself. In the console's frame for an operator; the
 * plain frame for anyone else, who is shown nothing of the console. Never a redirect (Next renders
 * it beside the console's pages).
 */
export default async function OperatorNotFound() {
  const locale = await getLocale();
  const m = getAdminMessages(locale);
  const t = m.common.refusals;
  const operator = await signedInOperator();
  const body = <RefusalNotice title={t.notFound.title} body={t.notFound.body} href={operator ? "/operator" : "/admin"} linkText={t.home} />;
  if (!operator) return <PlainFrame m={m}>{body}</PlainFrame>;
  return (
    <OperatorPage operator={operator} locale={locale} path="/operator" section={undefined}>
      {body}
    </OperatorPage>
  );
}
