import type { Metadata } from "next";
import { AdminPage } from "@/app/admin/admin-page";
import { NotificationUrlForm, RotateSecretForm, TestNotificationForm } from "@/components/admin/notifications/notification-forms";
import { ResendForm, ResentNotice } from "@/components/admin/notifications/resend";
import { Cell, Row, columnsOf, ScrollTable } from "@/components/ui/table";
import { TextLink } from "@/components/ui/text-link";
import { formatDateTime, sessionIdHint } from "@/lib/backoffice/common/format";
import { listPartnerNotifications, notificationSettings } from "@/lib/backoffice/notifications/notifications";
import { requirePermission } from "@/lib/identity/staff";
import { partnerById } from "@/lib/partners/partners";
import { getAdminMessages } from "@/lib/i18n/admin-messages";
import { getLocale } from "@/lib/i18n/server";
import { notificationUrlAction, resendNotificationAction, rotateSecretAction, testNotificationAction } from "./actions";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const PATH = "/admin/notifications";

export async function generateMetadata(): Promise<Metadata> {
  return { title: getAdminMessages(await getLocale()).meta.notifications };
}

/**
 * The partner's notifications to its own system: the endpoint and the signing secret (rotation
 * shows the new one once), a test notification, and the notifications sent, newest first, each
 * with a "Resend". Only this partner's: every query is scoped by the session's partner.
 */
export default async function NotificationsPage({ searchParams }: Props) {
  const query = await searchParams;
  const staff = await requirePermission("settings", PATH);
  const locale = await getLocale();
  const m = getAdminMessages(locale);
  const t = m.notifications;
  const page = typeof query.page === "string" && /^[1-9][0-9]{0,5}$/.test(query.page) ? Number(query.page) : 1;
  // Read afresh: the staff context's partner row was read before this request's actions ran.
  const partner = (await partnerById(staff.db, staff.partner.id)) ?? staff.partner;
  const settings = notificationSettings(partner);
  const { items, more } = await listPartnerNotifications(staff.db, staff.partner.id, { page });
  const dash = m.common.notAvailable;

  return (
    <AdminPage staff={staff} locale={locale} m={m} path={PATH} section="notifications">
      <div className="flex flex-col gap-6">
        <h1 className="text-3xl font-bold">{t.title}</h1>
        <p>{t.intro}</p>
        <ResentNotice value={query.resent} m={m} />

        <section aria-labelledby="notification-settings" className="flex flex-col gap-4 rounded-card bg-surface p-4 shadow-sm">
          <h2 id="notification-settings" className="text-xl font-semibold">
            {t.settingsTitle}
          </h2>
          <NotificationUrlForm
            action={notificationUrlAction}
            current={settings.notificationUrl ?? ""}
            text={t}
            errorPrefix={m.common.errorPrefix}
          />
          <div className="flex flex-col gap-2 border-t border-divider pt-4">
            <h3 className="font-semibold">{t.secretTitle}</h3>
            <RotateSecretForm action={rotateSecretAction} text={t} hasSecret={settings.hasSigningSecret} />
            {settings.previousSecretValidUntil ? (
              <p>{t.previousValid.replace("{until}", formatDateTime(settings.previousSecretValidUntil, locale))}</p>
            ) : null}
          </div>
          <div className="flex flex-col gap-2 border-t border-divider pt-4">
            <h3 className="font-semibold">{t.testTitle}</h3>
            <TestNotificationForm action={testNotificationAction} text={t} />
          </div>
        </section>

        <section aria-labelledby="notification-list" className="flex flex-col gap-4">
          <h2 id="notification-list" className="text-xl font-semibold">
            {t.listTitle}
          </h2>
          {items.length === 0 ? (
            <p>{t.none}</p>
          ) : (
            <ScrollTable
              label={t.listTitle}
              wide
              columns={columnsOf(
                t.columns,
                ["created", "event", "session", "attempts", "lastStatus", "lastError", "nextAttempt", "delivered", "action"],
                ["attempts"],
              )}
            >
              {items.map((item) => (
                <Row key={item.id}>
                  <Cell header>{formatDateTime(item.createdAt, locale)}</Cell>
                  <Cell>
                    <code className="font-mono">{item.type}</code>
                  </Cell>
                  <Cell>
                    {item.operationId ? (
                      <TextLink href={`/admin/operations/${encodeURIComponent(item.operationId)}`}>
                        {item.bookingReference ?? sessionIdHint(item.sessionId)}
                      </TextLink>
                    ) : (
                      (item.bookingReference ?? sessionIdHint(item.sessionId))
                    )}
                    <span className="block font-mono text-xs text-muted">{sessionIdHint(item.sessionId)}</span>
                  </Cell>
                  <Cell numeric>{item.attempts}</Cell>
                  <Cell>{item.lastStatusCode ?? dash}</Cell>
                  <Cell>{item.lastError ?? dash}</Cell>
                  <Cell>{item.deliveredAt ? dash : formatDateTime(item.nextAttemptAt, locale)}</Cell>
                  <Cell>{item.deliveredAt ? formatDateTime(item.deliveredAt, locale) : t.pending}</Cell>
                  <Cell>
                    <ResendForm
                      action={resendNotificationAction}
                      notificationId={item.id}
                      event={item.type}
                      session={item.bookingReference ?? sessionIdHint(item.sessionId)}
                      m={m}
                    />
                  </Cell>
                </Row>
              ))}
            </ScrollTable>
          )}
          {page > 1 || more ? (
            <nav aria-label={t.pageLabel} className="flex gap-4">
              {page > 1 ? <TextLink href={page === 2 ? PATH : `${PATH}?page=${page - 1}`}>{t.newer}</TextLink> : null}
              {more ? <TextLink href={`${PATH}?page=${page + 1}`}>{t.older}</TextLink> : null}
            </nav>
          ) : null}
        </section>
      </div>
    </AdminPage>
  );
}
