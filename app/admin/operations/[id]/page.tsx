import type { Metadata } from "next";
import { AdminPage } from "@/app/admin/admin-page";
import { AmountsCard } from "@/components/admin/operation/amounts-card";
import { BookingCard } from "@/components/admin/operation/booking-card";
import { HistoryCard } from "@/components/admin/operation/history-card";
import { ResentNotice } from "@/components/admin/notifications/resend";
import { NotificationsCard } from "@/components/admin/operation/notifications-card";
import { OffersCard } from "@/components/admin/operation/offers-card";
import { OperationActions } from "@/components/admin/operation/operation-actions";
import { StatusCard } from "@/components/admin/operation/status-card";
import { statusWords } from "@/components/admin/status-badge";
import { WebhooksCard } from "@/components/admin/operation/webhooks-card";
import { Notice } from "@/components/ui/notice";
import { TextLink } from "@/components/ui/text-link";
import { operationDetail } from "@/lib/backoffice/operations/operations";
import { can } from "@/lib/identity/permissions";
import { requireStaff } from "@/lib/identity/staff";
import { OPERATION_STATUSES } from "@/lib/financing/contract";
import { getAdminMessages } from "@/lib/i18n/admin-messages";
import { getLocale } from "@/lib/i18n/server";
import { cancelOperationAction } from "./actions";
import { operationPath } from "./operation-path";
import { resendNotificationAction } from "../../notifications/actions";
import type { IdPageProps } from "@/lib/http/page-props";

export async function generateMetadata(): Promise<Metadata> {
  return { title: getAdminMessages(await getLocale()).meta.operation };
}

/** A status the URL names, only if it is one: words to show, never trusted. */
function knownStatus(value: unknown): string | undefined {
  return OPERATION_STATUSES.find((status) => status === value);
}

/**
 * One operation: its status (the conditional status call, which also decides whether this
 * credential may see it), amounts, the plans it is eligible for, our status history, its webhook
 * events and the partner notifications (each can be resent); cancel where the status allows it,
 * refund when confirmed.
 */
export default async function OperationPage({ params, searchParams }: IdPageProps) {
  const { id } = await params;
  const query = await searchParams;
  const { refHint, path } = operationPath(id, query);
  const staff = await requireStaff(path);
  const locale = await getLocale();
  const m = getAdminMessages(locale);
  const detail = await operationDetail(staff, id, refHint);

  const back = (
    <p>
      <TextLink href="/admin/operations">{m.operation.backToList}</TextLink>
    </p>
  );

  if (detail.kind === "problem") {
    const notFound = detail.problem === "not_found" || detail.problem === "forbidden";
    return (
      <AdminPage staff={staff} locale={locale} m={m} path={path} section="operations">
        {back}
        <h1 className="text-3xl font-bold">{notFound ? m.operation.notFoundTitle : m.operation.statusUnavailable}</h1>
        <Notice tone={notFound ? "warning" : "error"}>{notFound ? m.operation.notFoundBody : m.common.apiUnavailable}</Notice>
      </AdminPage>
    );
  }

  const status = detail.status.status.status;
  const reference = detail.session?.bookingReference ?? detail.operation?.externalId ?? refHint ?? id;
  const notice = query.notice;
  const was = knownStatus(query.was) ?? status;

  return (
    <AdminPage staff={staff} locale={locale} m={m} path={path} section="operations">
      {back}
      <h1 className="text-3xl font-bold">{m.operation.title(reference)}</h1>
      {notice === "cancelled" && status === "CANCELLED" ? (
        <Notice tone="success" live>
          {m.operation.cancelled}
        </Notice>
      ) : null}
      <ResentNotice value={query.resent} m={m} />
      {notice === "not_cancellable" ? (
        <Notice tone="error" live title={m.operation.notCancellableTitle}>
          {m.operation.notCancellable(statusWords(m.common.statuses, was))}
        </Notice>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-2">
        <StatusCard detail={detail} m={m} locale={locale} operationId={id} />
        <AmountsCard detail={detail} m={m} locale={locale} />
      </div>
      <OperationActions
        detail={detail}
        m={m}
        operationId={id}
        permalink={path}
        cancelAction={cancelOperationAction}
        canRefund={can(staff.user, "refund")}
      />
      <BookingCard detail={detail} m={m} />
      <OffersCard detail={detail} m={m} locale={locale} />
      {detail.session ? <HistoryCard detail={detail} m={m} locale={locale} /> : null}
      <WebhooksCard detail={detail} m={m} locale={locale} />
      {detail.session ? (
        <NotificationsCard detail={detail} m={m} locale={locale} operationId={id} resendAction={resendNotificationAction} />
      ) : null}
    </AdminPage>
  );
}
