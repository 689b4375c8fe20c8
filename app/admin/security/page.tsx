import type { Metadata } from "next";
import { AdminPage } from "@/app/admin/admin-page";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { TextField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { Cell, Row, ScrollTable } from "@/components/ui/table";
import { TextLink } from "@/components/ui/text-link";
import { listStaffSessions } from "@/lib/identity/staff-sessions";
import { formatDateTime } from "@/lib/backoffice/common/format";
import { requireStaff } from "@/lib/identity/staff";
import { twoFactorEnabledAt, unusedRecoveryCodes } from "@/lib/identity/two-factor";
import { getAdminMessages } from "@/lib/i18n/admin-messages";
import { getLocale } from "@/lib/i18n/server";
import { disableTwoFactorAction, signOutOthersAction } from "./actions";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const PATH = "/admin/security";

export async function generateMetadata(): Promise<Metadata> {
  return { title: getAdminMessages(await getLocale()).meta.security };
}

/** The staff member's own security: two-step verification, the password, the open sessions. */
export default async function SecurityPage({ searchParams }: Props) {
  const query = await searchParams;
  const staff = await requireStaff(PATH);
  const locale = await getLocale();
  const m = getAdminMessages(locale);
  const t = m.security;
  const enabledAt = await twoFactorEnabledAt(staff.db, staff.user.id);
  const codesLeft = await unusedRecoveryCodes(staff.db, staff.user.id);
  const sessions = await listStaffSessions(staff.db, staff.user.id);
  const ended = typeof query.ended === "string" && /^\d{1,4}$/.test(query.ended) ? Number(query.ended) : undefined;

  return (
    <AdminPage staff={staff} locale={locale} m={m} path={PATH} section="security">
      <div className="flex flex-col gap-6">
        <h1 className="text-3xl font-bold">{t.title}</h1>
        <p>{t.intro}</p>
        {query.password === "changed" ? (
          <Notice tone="success">{t.passwordChanged(ended ?? 0)}</Notice>
        ) : ended !== undefined ? (
          <Notice tone="success">{t.othersEnded(ended)}</Notice>
        ) : null}
        {query.disable === "refused" ? <Notice tone="error">{t.disableRefused}</Notice> : null}

        <Card title={t.sessionsHeading} id="security-sessions">
          <div className="flex flex-col gap-4">
            <ScrollTable
              label={t.sessionsHeading}
              caption={t.sessionsCaption}
              columns={[
                { key: "created", label: t.columns.created },
                { key: "lastSeen", label: t.columns.lastSeen },
                { key: "ip", label: t.columns.ip },
                { key: "device", label: t.columns.device },
              ]}
            >
              {sessions.map((session) => (
                <Row key={session.tokenHash}>
                  <Cell header>
                    {formatDateTime(session.createdAt, locale)}
                    {session.tokenHash === staff.session.tokenHash ? <strong className="block">{t.thisSession}</strong> : null}
                  </Cell>
                  <Cell>{formatDateTime(session.lastSeenAt, locale)}</Cell>
                  <Cell>{session.ip ?? m.common.notAvailable}</Cell>
                  <Cell>{session.userAgent ?? m.common.notAvailable}</Cell>
                </Row>
              ))}
            </ScrollTable>
            <form action={signOutOthersAction}>
              <Button variant="secondary" stretch={false}>
                {t.signOutOthers}
              </Button>
            </form>
          </div>
        </Card>

        <Card title={t.passwordHeading} id="security-password">
          <TextLink href="/admin/security/password">{t.changePassword}</TextLink>
        </Card>

        <Card title={t.twoFactorHeading} id="security-two-factor">
          <div className="flex flex-col gap-3">
            {enabledAt ? <p>{t.twoFactorOn(formatDateTime(enabledAt, locale))}</p> : null}
            <p>{t.recoveryLeft(codesLeft)}</p>
            <form action={disableTwoFactorAction} className="flex flex-col gap-3">
              <TextField
                name="password"
                id="security-disable-password"
                label={t.disablePassword}
                hint={t.disableHint}
                type="password"
                autoComplete="current-password"
                required
                maxLength={1000}
              />
              <div>
                <Button variant="secondary" stretch={false}>
                  {t.disable}
                </Button>
              </div>
            </form>
          </div>
        </Card>
      </div>
    </AdminPage>
  );
}
