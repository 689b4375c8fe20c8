import { formatDateTime } from "@/lib/backoffice/common/format";
import { money, moneyFromAmount } from "@/lib/financing/money";
import { getAdminMessages } from "@/lib/i18n/admin-messages";
import { formatAmount, formatPercent } from "@/lib/i18n/format";
import type { Locale } from "@/lib/i18n/locales";
import { MESSAGES } from "@/lib/i18n/messages";
import { CUSTOMER_FIELDS } from "@/lib/vocabulary/customer";
import type { CustomerExport, DataRequestSession } from "./data-requests";

/**
 * The data requests page's rows and readable export, every value formatted for the staff member's
 * language: its form is a client component, which gets strings only.
 */

/** A session of a customer as the data requests page shows it: every value ready to show. */
export interface DataRequestRow {
  sessionId: string;
  reference: string;
  state: string;
  created: string;
  customerData: "present" | "erased" | "unavailable";
  /** The labels of the fields erasing would empty. */
  fields: string[];
  erasable: boolean;
  /** When the session expires, if it cannot be erased now and has not expired. */
  retry?: string;
}

/** The readable export: each session's entries as label and value, and the customer's data. */
export interface DataRequestExportView {
  generated: string;
  sessions: { reference: string; entries: [string, string][]; customer: [string, string][] | "erased" | "unavailable" }[];
}

/** The customer's fields by the labels the checkout's form gives them. */
function fieldLabel(field: (typeof CUSTOMER_FIELDS)[number], locale: Locale): string {
  return MESSAGES[locale].form.labels[field] ?? field;
}

export function dataRequestRows(sessions: readonly DataRequestSession[], locale: Locale): DataRequestRow[] {
  const t = getAdminMessages(locale).dataRequests;
  return sessions.map((session) => ({
    sessionId: session.sessionId,
    reference: session.bookingReference,
    state: t.states[session.state],
    created: formatDateTime(session.createdAt, locale),
    customerData: session.customerData,
    fields: session.fields.map((field) => fieldLabel(field, locale)),
    erasable: session.erasable.now,
    ...(!session.erasable.now && session.erasable.retryAfter ? { retry: formatDateTime(session.erasable.retryAfter, locale) } : {}),
  }));
}

export function dataRequestExportView(exported: CustomerExport, locale: Locale): DataRequestExportView {
  const t = getAdminMessages(locale).dataRequests;
  const f = t.exportFields;
  return {
    generated: formatDateTime(exported.generatedAt, locale),
    sessions: exported.sessions.map((session) => {
      const entries: [string, string][] = [
        [f.state, t.states[session.state]],
        [f.created, formatDateTime(session.createdAt, locale)],
        [f.updated, formatDateTime(session.updatedAt, locale)],
        [f.expires, formatDateTime(session.expiresAt, locale)],
        [f.package, session.booking.packageName],
        [f.travellers, String(session.booking.travellers)],
        [f.total, formatAmount(moneyFromAmount(session.booking.totalPrice.amount, session.booking.totalPrice.currency), locale)],
      ];
      const plan = session.chosenPlan;
      if (plan) {
        const quota = formatAmount(money(plan.commonQuota.cents, plan.commonQuota.currency), locale);
        entries.push([f.plan, `${plan.companyName} · ${plan.installments} × ${quota} · TAE ${formatPercent(plan.tae, locale)}`]);
      }
      if (session.operation) entries.push([f.operation, `${session.operation.id} (${session.operation.status ?? "—"})`]);
      const data = session.customerData;
      const customer =
        data.status === "present"
          ? CUSTOMER_FIELDS.flatMap((field): [string, string][] => {
              const value = data.data[field];
              return value === undefined || value === "" ? [] : [[fieldLabel(field, locale), value]];
            })
          : data.status;
      return { reference: session.bookingReference, entries, customer };
    }),
  };
}
