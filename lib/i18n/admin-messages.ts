import { shell } from "./admin/shell";
import { signIn } from "./admin/sign-in";
import { audit } from "./admin/audit";
import { health } from "./admin/health";
import { operations } from "./admin/operations";
import { cancelRefund } from "./admin/cancel-refund";
import { notifications } from "./admin/notifications";
import { theme } from "./admin/theme";
import { dataRequests } from "./admin/data-requests";
import type { Locale } from "./locales";

/**
 * Every string of the partner back-office (`/admin`), in Spanish (the source) and English, one file
 * per feature in lib/i18n/admin/. `en` is typed by `es`, so a key missing in either language is a
 * type error. Functions take values that are already formatted (amounts, dates); formatting is the
 * page's job.
 *
 * The parts handed to client components (`counter`, `refundForm`, `loginForm`, `cancelForm`) hold
 * strings only, with `{placeholders}` the component fills in: functions cannot cross the
 * server/client boundary.
 */

const es = {
  ...shell.es,
  ...signIn.es,
  ...audit.es,
  ...health.es,
  ...operations.es,
  ...cancelRefund.es,
  ...notifications.es,
  ...theme.es,
  ...dataRequests.es,
};

export type AdminMessages = typeof es;
export type CounterMessages = AdminMessages["counter"];
export type LoginFormMessages = AdminMessages["loginForm"];
export type CancelFormMessages = AdminMessages["cancelForm"];
export type RefundFormMessages = AdminMessages["refundForm"];
export type { DataRequestsMessages } from "./admin/data-requests";

const en: AdminMessages = {
  ...shell.en,
  ...signIn.en,
  ...audit.en,
  ...health.en,
  ...operations.en,
  ...cancelRefund.en,
  ...notifications.en,
  ...theme.en,
  ...dataRequests.en,
};

export const ADMIN_MESSAGES: Record<Locale, AdminMessages> = { es, en };

export function getAdminMessages(locale: Locale): AdminMessages {
  return ADMIN_MESSAGES[locale];
}
