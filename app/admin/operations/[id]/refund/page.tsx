import type { Metadata } from "next";
import { AdminPage } from "@/app/admin/admin-page";
import { RefundFlow } from "@/components/admin/refund-flow";
import { reasonSettings, type RefundState } from "@/components/admin/form-states";
import { TextLink } from "@/components/ui/text-link";
import { openRefund } from "@/lib/backoffice/refunds/refund";
import { requirePermission } from "@/lib/identity/staff";
import { getAdminMessages } from "@/lib/i18n/admin-messages";
import { intlLocale } from "@/lib/i18n/format";
import { getLocale } from "@/lib/i18n/server";
import { refundAction } from "./actions";
import { operationPath } from "../operation-path";
import type { IdPageProps } from "@/lib/http/page-props";

export async function generateMetadata(): Promise<Metadata> {
  return { title: getAdminMessages(await getLocale()).meta.refund };
}

/**
 * Refunding a confirmed operation whose trip was cancelled: the API's breakdown
 * (`GET /operations/{id}/refund/details`), the agency's and provider's charges with the total
 * recomputed as they are typed, a confirmation step with the server's own computation, then
 * `POST /operations/{id}/refund` and the status read again.
 */
export default async function RefundPage({ params, searchParams }: IdPageProps) {
  const { id } = await params;
  const query = await searchParams;
  const { refHint, refQuery, path: operationHref } = operationPath(id, query);
  const path = `/admin/operations/${encodeURIComponent(id)}/refund${refQuery}`;
  // Only members an administrator let refund: anyone else, by a typed URL too, gets "not found".
  const staff = await requirePermission("refund", path);
  const locale = await getLocale();
  const m = getAdminMessages(locale);

  // Whatever is found, the same component shows it (see RefundFlow's `initial`).
  const opening = await openRefund(staff, id);
  const initial: RefundState = { ...opening, submission: 0 };
  const base = opening.step === "edit" ? opening.base : undefined;

  const statuses: Record<string, string> = m.common.statuses;
  return (
    <AdminPage staff={staff} locale={locale} m={m} path={path} section="operations">
      <p>
        <TextLink href={operationHref}>{m.refundForm.backToOperation}</TextLink>
      </p>
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold">{m.refund.title(refHint ?? id)}</h1>
        <p className="text-muted">{m.refund.intro}</p>
      </div>
      <RefundFlow
        action={refundAction}
        permalink={path}
        operationId={id}
        base={base}
        initial={initial}
        text={m.refundForm}
        reason={reasonSettings(m)}
        statuses={statuses}
        intlLocale={intlLocale(locale)}
        backHref={operationHref}
      />
    </AdminPage>
  );
}
