import type { Metadata } from "next";
import { AdminPage } from "@/app/admin/admin-page";
import { Button } from "@/components/ui/button";
import { ErrorSummary } from "@/components/ui/error-summary";
import { SelectField, TextField } from "@/components/ui/field";
import { Cell, Row, columnsOf, ScrollTable } from "@/components/ui/table";
import { TextLink } from "@/components/ui/text-link";
import { AUDIT_KINDS, auditFiltersOf, listAuditEvents, type AuditEventRow } from "@/lib/audit/audit";
import { formatDateTime } from "@/lib/backoffice/common/format";
import { requirePermission } from "@/lib/identity/staff";
import { memberNames } from "@/lib/identity/members";
import { money } from "@/lib/financing/money";
import { getAdminMessages, type AdminMessages } from "@/lib/i18n/admin-messages";
import { formatAmount } from "@/lib/i18n/format";
import type { Locale } from "@/lib/i18n/locales";
import { getLocale } from "@/lib/i18n/server";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const PATH = "/admin/audit";
const LIMIT = 200;

export async function generateMetadata(): Promise<Metadata> {
  return { title: getAdminMessages(await getLocale()).meta.audit };
}

/**
 * The partner's audit log, read-only: who signed in, changed their security, cancelled, refunded
 * or changed the theme, from where and with what result. Filters are a GET form (shareable, no
 * JavaScript). Only this partner's events: the query is scoped by the session's partner.
 */
export default async function AuditPage({ searchParams }: Props) {
  const query = await searchParams;
  const staff = await requirePermission("audit", PATH);
  const locale = await getLocale();
  const m = getAdminMessages(locale);
  const t = m.audit;

  const people = await memberNames(staff.db, staff.partner.id);
  const { filters, invalidDate } = auditFiltersOf(
    query,
    people.map((p) => p.id),
  );
  const events = await listAuditEvents(staff.db, staff.partner.id, filters, LIMIT);
  const value = (key: string) => (typeof query[key] === "string" ? (query[key] as string) : "");

  return (
    <AdminPage staff={staff} locale={locale} m={m} path={PATH} section="audit">
      <div className="flex flex-col gap-6">
        <h1 className="text-3xl font-bold">{t.title}</h1>
        <p>{t.intro}</p>
        {invalidDate ? (
          <ErrorSummary titleId="audit-errors" title={t.invalidDate}>
            <p className="mt-1">{t.invalidDate}</p>
          </ErrorSummary>
        ) : null}
        <form method="get" action={PATH} className="flex flex-wrap items-end gap-3 rounded-card bg-surface p-4 shadow-sm">
          <SelectField
            name="kind"
            id="audit-kind"
            label={t.kind}
            defaultValue={filters.kind ?? ""}
            options={[{ value: "", label: t.anyKind }, ...AUDIT_KINDS.map((kind) => ({ value: kind, label: t.kinds[kind] }))]}
          />
          <SelectField
            name="staff"
            id="audit-staff"
            label={t.staff}
            defaultValue={filters.staffUserId ?? ""}
            options={[{ value: "", label: t.anyStaff }, ...people.map((p) => ({ value: p.id, label: p.name }))]}
          />
          <TextField name="from" id="audit-from" label={t.from} type="date" defaultValue={value("from")} />
          <TextField name="to" id="audit-to" label={t.to} type="date" defaultValue={value("to")} />
          <Button stretch={false}>{t.apply}</Button>
          <TextLink href={PATH}>{t.clear}</TextLink>
        </form>
        {events.length === 0 ? (
          <p>{t.none}</p>
        ) : (
          <>
            <ScrollTable
              label={t.title}
              caption={t.caption}
              wide
              columns={columnsOf(t.columns, ["at", "kind", "who", "operation", "ip", "result", "details"])}
            >
              {events.map((event) => (
                <Row key={event.id}>
                  <Cell header>{formatDateTime(event.at, locale)}</Cell>
                  <Cell>{t.kinds[event.kind] ?? event.kind}</Cell>
                  <Cell>{whoText(event, t, m.common.notAvailable)}</Cell>
                  <Cell>{event.operationId ?? m.common.notAvailable}</Cell>
                  {/* A platform operator's address is the platform's to know, not the partner's. */}
                  <Cell>{byOperator(event) ? m.common.notAvailable : (event.ip ?? m.common.notAvailable)}</Cell>
                  <Cell>{t.results[event.result] ?? event.result}</Cell>
                  <Cell>{detailsText(event, t, locale)}</Cell>
                </Row>
              ))}
            </ScrollTable>
            {events.length === LIMIT ? <p className="text-sm text-muted">{t.limited(LIMIT)}</p> : null}
          </>
        )}
      </div>
    </AdminPage>
  );
}

/**
 * Whether a platform operator did it, in the console: a change to the partner's settings
 * (`actor: operator`, lib/audit) or its first administrator's invitation (`by: operator`).
 */
function byOperator(event: AuditEventRow): boolean {
  return event.details?.actor === "operator" || (event.kind === "staff_invited" && event.details?.by === "operator");
}

/**
 * Who did it: a staff member by name, a platform operator (the console), or the partner's backend
 * through the checkout sessions API (the secret it used, by its name, and who created that secret),
 * said as such.
 */
function whoText(event: AuditEventRow, t: AdminMessages["audit"], none: string): string {
  if (event.apiActor) {
    const creator = event.details?.apiSecretCreatedBy;
    return typeof creator === "string" ? `${t.byApi(event.apiActor)} (${t.secretCreatedBy(creator)})` : t.byApi(event.apiActor);
  }
  if (!event.staffName) return none;
  return byOperator(event) ? t.byOperator(event.staffName) : event.staffName;
}

/** The few details staff need: a refund's amounts, a cancel's booking, how many sessions ended, which API secret. */
function detailsText(event: AuditEventRow, t: AdminMessages["audit"], locale: Locale): string {
  const d = event.details ?? {};
  if (event.kind === "operation_refunded" && typeof d.totalToRefundCents === "number" && typeof d.chargesCents === "number") {
    const currency = typeof d.currency === "string" ? d.currency : "EUR";
    // A refund that did not succeed: what was asked, not "refunded" (the result column says how it ended).
    return (event.result === "ok" ? t.refundDetails : t.refundAskedDetails)(
      formatAmount(money(d.totalToRefundCents, currency), locale),
      formatAmount(money(d.chargesCents, currency), locale),
    );
  }
  // A cancel through the checkout sessions API: which booking (an open session has no operation yet).
  if (event.kind === "operation_cancelled" && typeof d.bookingReference === "string") return t.bookingDetails(d.bookingReference);
  // A customer's data erased: which booking (the data itself is gone, and never was in the log).
  if (event.kind === "customer_data_erased" && typeof d.bookingReference === "string") return t.bookingDetails(d.bookingReference);
  // A change to a member of the staff: whom it was about (the log outlives the account), and what they may do now.
  if (typeof d.memberName === "string") {
    const member = t.memberDetails(
      d.memberName,
      typeof d.role === "string" ? d.role : undefined,
      typeof d.canRefund === "boolean" ? d.canRefund : undefined,
      d.canDataRequests === true,
    );
    return typeof d.endedSessions === "number" && d.endedSessions > 0 ? `${member} · ${t.endedSessions(d.endedSessions)}` : member;
  }
  if (typeof d.endedSessions === "number") return t.endedSessions(d.endedSessions);
  // A customer's data exported: how many sessions, in which form; never whose.
  if (event.kind === "customer_data_exported" && typeof d.sessions === "number") {
    return t.exportedSessions(d.sessions, typeof d.format === "string" ? d.format : "page");
  }
  if (event.kind === "permission_refused" && typeof d.page === "string") return t.refusedPage(d.page);
  if (event.kind.startsWith("api_secret_") && typeof d.prefix === "string" && d.prefix !== "") return `${d.prefix}…`;
  // A payment link: its booking and, for an e-mail, the recipient as recorded (masked). Not the
  // session id: the link's key, which a reader of the log does not need.
  if (event.kind.startsWith("payment_link_") && typeof d.bookingReference === "string") {
    return t.linkDetails(d.bookingReference, typeof d.to === "string" ? d.to : undefined);
  }
  return "";
}
