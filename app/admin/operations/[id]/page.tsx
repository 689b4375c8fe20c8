import type { Metadata } from "next";
import Link from "next/link";
import { AdminPage } from "@/app/admin/admin-page";
import { CancelForm } from "@/components/admin/cancel-form";
import { StatusBadge } from "@/components/admin/status-badge";
import { Card } from "@/components/ui/card";
import { Notice } from "@/components/ui/notice";
import { formatDateTime } from "@/lib/backoffice/format";
import { CANCELLABLE_STATUSES, operationDetail, type OperationDetail } from "@/lib/backoffice/operations";
import { REASON_MAX_LENGTH } from "@/lib/backoffice/refund";
import { requireStaff } from "@/lib/backoffice/staff";
import { totalOwed } from "@/lib/checkout/offers";
import { OPERATION_STATUSES } from "@/lib/financing/contract";
import { getAdminMessages, type AdminMessages } from "@/lib/i18n/admin-messages";
import { formatAmount, formatPercent } from "@/lib/i18n/format";
import type { Locale } from "@/lib/i18n/locales";
import { getLocale } from "@/lib/i18n/server";
import { cancelOperationAction } from "../../actions";

type Props = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata(): Promise<Metadata> {
  return { title: getAdminMessages(await getLocale()).meta.operation };
}

const LINK = "font-semibold text-brand underline underline-offset-4";
const TH = "px-3 py-2 font-semibold";
const TD = "px-3 py-2";

/** A status the URL names, only if it is one: words to show, never trusted. */
function knownStatus(value: unknown): string | undefined {
  return OPERATION_STATUSES.find((status) => status === value);
}

function statusWords(m: AdminMessages, status: string): string {
  const statuses: Record<string, string> = m.common.statuses;
  return statuses[status] ? `${statuses[status]} (${status})` : status;
}

/**
 * One operation: its status (the conditional status call, which also decides whether this
 * credential may see it), amounts, the plans it is eligible for, our status history, its webhook
 * events and the partner notifications; cancel where the status allows it, refund when confirmed.
 */
export default async function OperationPage({ params, searchParams }: Props) {
  const { id } = await params;
  const query = await searchParams;
  const refHint = typeof query.ref === "string" && query.ref.length <= 200 ? query.ref : undefined;
  const path = `/admin/operations/${encodeURIComponent(id)}${refHint ? `?ref=${encodeURIComponent(refHint)}` : ""}`;
  const staff = await requireStaff(path);
  const locale = await getLocale();
  const m = getAdminMessages(locale);
  const detail = await operationDetail(staff, id, refHint);

  const back = (
    <p>
      <Link href="/admin/operations" className={LINK}>
        {m.operation.backToList}
      </Link>
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
      {notice === "not_cancellable" ? (
        <Notice tone="error" live title={m.operation.notCancellableTitle}>
          {m.operation.notCancellable(statusWords(m, was))}
        </Notice>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-2">
        <Card title={m.operation.statusHeading} id="status-heading">
          <div className="flex flex-col gap-3">
            <p className="text-lg">
              <StatusBadge status={status} m={m} />
            </p>
            <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
              <dt className="text-muted">{m.operation.updatedAt}</dt>
              <dd>{formatDateTime(detail.status.status.updatedAt, locale)}</dd>
              <dt className="text-muted">{m.operation.operationId}</dt>
              <dd>
                <code className="break-all">{id}</code>
              </dd>
              {detail.operation?.operationNumber !== undefined ? (
                <>
                  <dt className="text-muted">{m.operation.operationNumber}</dt>
                  <dd>{detail.operation.operationNumber}</dd>
                </>
              ) : null}
            </dl>
            <p className="text-sm text-muted">{detail.status.modified ? m.operation.readNow : m.operation.notModified}</p>
          </div>
        </Card>

        <Card title={m.operation.amountsHeading} id="amounts-heading">
          {detail.operation ? (
            <dl className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-1">
              <dt className="text-muted">{m.operation.totalPrice}</dt>
              <dd className="text-right font-semibold tabular-nums">{formatAmount(detail.operation.totalPrice, locale)}</dd>
              <dt className="text-muted">{m.operation.totalReserve}</dt>
              <dd className="text-right font-semibold tabular-nums">{formatAmount(detail.operation.totalReserve, locale)}</dd>
            </dl>
          ) : (
            <p className="text-muted">{m.operation.amountsUnknown}</p>
          )}
        </Card>
      </div>

      <Actions detail={detail} status={status} id={id} path={path} m={m} />

      <Card title={m.operation.bookingHeading} id="booking-heading">
        {detail.session ? (
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1">
            <dt className="text-muted">{m.operation.customer}</dt>
            <dd>{detail.session.customerName ?? m.common.notAvailable}</dd>
            <dt className="text-muted">{m.operation.package}</dt>
            <dd>{detail.session.packageName}</dd>
            <dt className="text-muted">{m.operation.reference}</dt>
            <dd>{detail.session.bookingReference}</dd>
            <dt className="text-muted">{m.operation.checkoutSession}</dt>
            <dd>
              <code className="break-all text-sm">{detail.session.sessionId}</code>
            </dd>
          </dl>
        ) : (
          <p className="text-muted">{m.operation.notOurs}</p>
        )}
      </Card>

      <Card title={m.operation.offersHeading} id="offers-heading">
        <Offers detail={detail} m={m} locale={locale} />
      </Card>

      {detail.session ? (
        <Card title={m.operation.historyHeading} id="history-heading">
          {detail.history.length === 0 ? (
            <p className="text-muted">{m.operation.historyNone}</p>
          ) : (
            <ScrollTable label={m.operation.historyCaption}>
              <thead>
                <tr className="border-b-2 border-divider">
                  <th scope="col" className={TH}>{m.operation.historyColumns.status}</th>
                  <th scope="col" className={TH}>{m.operation.historyColumns.source}</th>
                  <th scope="col" className={TH}>{m.operation.historyColumns.apiUpdatedAt}</th>
                  <th scope="col" className={TH}>{m.operation.historyColumns.at}</th>
                </tr>
              </thead>
              <tbody>
                {detail.history.map((row) => (
                  <tr key={row.id} className="border-t border-divider">
                    <td className={TD}>
                      <StatusBadge status={row.status} m={m} />
                    </td>
                    <td className={TD}>{m.operation.sources[row.source] ?? row.source}</td>
                    <td className={TD}>{row.operationUpdatedAt ? formatDateTime(row.operationUpdatedAt, locale) : m.common.notAvailable}</td>
                    <td className={TD}>{formatDateTime(row.at, locale)}</td>
                  </tr>
                ))}
              </tbody>
            </ScrollTable>
          )}
        </Card>
      ) : null}

      <Card title={m.operation.webhooksHeading} id="webhooks-heading">
        {detail.events.length === 0 ? (
          <p className="text-muted">{m.operation.webhooksNone}</p>
        ) : (
          <ScrollTable label={m.operation.webhooksCaption}>
            <thead>
              <tr className="border-b-2 border-divider">
                <th scope="col" className={TH}>{m.operation.webhookColumns.event}</th>
                <th scope="col" className={TH}>{m.operation.webhookColumns.claimed}</th>
                <th scope="col" className={TH}>{m.operation.webhookColumns.received}</th>
                <th scope="col" className={TH}>{m.operation.webhookColumns.deliveries}</th>
                <th scope="col" className={TH}>{m.operation.webhookColumns.ack}</th>
              </tr>
            </thead>
            <tbody>
              {detail.events.map((event) => {
                const state =
                  event.processedAt === null
                    ? "waiting"
                    : event.outcome === "applied and acknowledged"
                      ? "acknowledged"
                      : event.outcome?.startsWith("rejected")
                        ? "rejected"
                        : "applied";
                return (
                  <tr key={event.eventId} className="border-t border-divider align-top">
                    <td className={TD}>{event.eventId}</td>
                    <td className={TD}>
                      <StatusBadge status={event.claimedStatus} m={m} />
                    </td>
                    <td className={TD}>{formatDateTime(event.receivedAt, locale)}</td>
                    <td className={TD}>{event.deliveries}</td>
                    <td className={TD}>
                      <span className="font-semibold">{m.operation.webhookStates[state]}</span>
                      {event.outcome && state !== "acknowledged" ? <span className="block text-muted">{event.outcome}</span> : null}
                      {state === "waiting" ? <span className="block text-muted">{m.operation.webhookRetry(formatDateTime(event.nextAttemptAt, locale))}</span> : null}
                      {event.lastError ? <code className="block text-xs text-muted">{event.lastError}</code> : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </ScrollTable>
        )}
      </Card>

      {detail.session ? (
        <Card title={m.operation.notificationsHeading} id="notifications-heading">
          {detail.notifications.length === 0 ? (
            <p className="text-muted">{m.operation.notificationsNone}</p>
          ) : (
            <ScrollTable label={m.operation.notificationsCaption}>
              <thead>
                <tr className="border-b-2 border-divider">
                  <th scope="col" className={TH}>{m.operation.notificationColumns.state}</th>
                  <th scope="col" className={TH}>{m.operation.notificationColumns.created}</th>
                  <th scope="col" className={TH}>{m.operation.notificationColumns.attempts}</th>
                  <th scope="col" className={TH}>{m.operation.notificationColumns.delivered}</th>
                </tr>
              </thead>
              <tbody>
                {detail.notifications.map((row) => (
                  <tr key={row.id} className="border-t border-divider align-top">
                    <td className={TD}>
                      <code>{row.state}</code>
                    </td>
                    <td className={TD}>{formatDateTime(row.createdAt, locale)}</td>
                    <td className={TD}>{row.attempts}</td>
                    <td className={TD}>
                      {row.deliveredAt ? formatDateTime(row.deliveredAt, locale) : m.operation.notificationPending}
                      {row.lastError && !row.deliveredAt ? <code className="block text-xs text-muted">{row.lastError}</code> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </ScrollTable>
          )}
        </Card>
      ) : null}
    </AdminPage>
  );
}

/** A table that scrolls sideways on a phone, in a focusable region so a keyboard can scroll it. */
function ScrollTable({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className="overflow-x-auto">
      <table className="w-full min-w-[32rem] border-collapse text-left text-sm">
        <caption className="sr-only">{label}</caption>
        {children}
      </table>
    </div>
  );
}

function Actions({ detail, status, id, path, m }: { detail: OperationDetail; status: string; id: string; path: string; m: AdminMessages }) {
  if (CANCELLABLE_STATUSES.includes(status)) {
    return (
      <Card title={m.operation.cancelHeading} id="cancel-heading">
        <div className="flex flex-col gap-4">
          <p>{m.operation.cancelIntro}</p>
          <CancelForm
            action={cancelOperationAction}
            operationId={id}
            permalink={path}
            text={m.cancelForm}
            counter={m.counter}
            reasonLabel={m.common.reasonLabel}
            reasonHint={m.common.reasonHint}
            max={REASON_MAX_LENGTH}
          />
        </div>
      </Card>
    );
  }
  if (status === "CONFIRMED") {
    const reference = detail.session?.bookingReference ?? detail.operation?.externalId;
    const href = `/admin/operations/${encodeURIComponent(id)}/refund${reference ? `?ref=${encodeURIComponent(reference)}` : ""}`;
    return (
      <Card title={m.operation.refundHeading} id="refund-heading">
        <p>{m.operation.refundIntro}</p>
        <p className="mt-3">
          <Link
            href={href}
            className="inline-flex min-h-11 items-center justify-center rounded-lg bg-brand px-5 py-2 font-semibold text-brand-contrast no-underline hover:bg-brand-strong"
          >
            {m.operation.refundLink}
          </Link>
        </p>
      </Card>
    );
  }
  return null;
}

function Offers({ detail, m, locale }: { detail: OperationDetail; m: AdminMessages; locale: Locale }) {
  const offers = detail.offers;
  if (offers.kind === "not_eligible") return <p>{m.operation.offersNotEligible}</p>;
  if (offers.kind === "none") return <p>{m.operation.offersNone}</p>;
  if (offers.kind === "unavailable") return <Notice tone="error">{m.operation.offersUnavailable}</Notice>;
  const c = m.operation.offerColumns;
  return (
    <ScrollTable label={m.operation.offersCaption}>
      <thead>
        <tr className="border-b-2 border-divider">
          <th scope="col" className={TH}>{c.provider}</th>
          <th scope="col" className={`${TH} text-right`}>{c.installments}</th>
          <th scope="col" className={`${TH} text-right`}>{c.quota}</th>
          <th scope="col" className={`${TH} text-right`}>{c.tin}</th>
          <th scope="col" className={`${TH} text-right`}>{c.tae}</th>
          <th scope="col" className={`${TH} text-right`}>{c.owed}</th>
        </tr>
      </thead>
      <tbody>
        {offers.offers.map((offer) => (
          <tr key={offer.id} className="border-t border-divider">
            <td className={TD}>{offer.companyName}</td>
            <td className={`${TD} text-right tabular-nums`}>{offer.installments}</td>
            <td className={`${TD} text-right tabular-nums`}>{formatAmount(offer.commonQuota, locale)}</td>
            <td className={`${TD} text-right tabular-nums`}>{formatPercent(offer.tin, locale)}</td>
            <td className={`${TD} text-right tabular-nums`}>{formatPercent(offer.tae, locale)}</td>
            <td className={`${TD} text-right tabular-nums`}>{formatAmount(totalOwed(offer), locale)}</td>
          </tr>
        ))}
      </tbody>
    </ScrollTable>
  );
}
