import type { Metadata } from "next";
import Link from "next/link";
import { AdminPage } from "@/app/admin/admin-page";
import { InviteForm } from "@/components/admin/staff/invite-form";
import { Card } from "@/components/ui/card";
import { Notice } from "@/components/ui/notice";
import { Cell, Row, columnsOf, ScrollTable } from "@/components/ui/table";
import { TEXT_LINK } from "@/components/ui/text-link";
import { listMembers, type Member } from "@/lib/identity/members";
import { requirePermission } from "@/lib/identity/staff";
import { getAdminMessages } from "@/lib/i18n/admin-messages";
import { getLocale } from "@/lib/i18n/server";
import { getStaffMessages, type StaffMessages } from "@/lib/i18n/staff-messages";
import { getMailer } from "@/lib/mail/mailer";
import { inviteAction } from "./actions";

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const PATH = "/admin/staff";

export async function generateMetadata(): Promise<Metadata> {
  return { title: getStaffMessages(await getLocale()).meta.staff };
}

function memberStatus(member: Member, t: StaffMessages["staff"]): string {
  if (member.disabledAt) return t.statuses.disabled;
  return member.twoFactor ? t.statuses.active : t.statuses.invited;
}

/**
 * The partner's staff, for its administrators: who they are, their role, whether they may refund,
 * whether they set up two-step verification, whether they are disabled; and the invitation form.
 * Only this partner's members (the query is scoped by the session's partner).
 */
export default async function StaffPage({ searchParams }: Props) {
  const query = await searchParams;
  const staff = await requirePermission("manage-staff", PATH);
  const locale = await getLocale();
  const m = getAdminMessages(locale);
  const s = getStaffMessages(locale);
  const t = s.staff;
  const members = await listMembers(staff.db, staff.partner.id);
  const error = typeof query.error === "string" && query.error in t.errors ? t.errors[query.error as keyof typeof t.errors] : undefined;

  return (
    <AdminPage staff={staff} locale={locale} m={m} path={PATH} section="staff">
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold">{t.title}</h1>
        <p className="text-muted">{t.intro}</p>
      </div>
      {query.done === "removed" ? <Notice tone="success">{t.done.removed}</Notice> : null}
      {error ? <Notice tone="error">{error}</Notice> : null}
      <section aria-labelledby="members-heading" className="flex flex-col gap-3 rounded-card bg-surface p-5 shadow-sm">
        <h2 id="members-heading" className="text-xl font-semibold">
          {t.caption}
        </h2>
        <ScrollTable
          label={t.caption}
          wide
          columns={columnsOf({ ...t.columns, manage: t.manage }, ["name", "email", "role", "refund", "twoFactor", "status", "manage"])}
        >
          {members.map((member) => (
            <Row key={member.id}>
              <Cell header>
                {member.name} {member.id === staff.user.id ? <span className="text-muted">{t.you}</span> : null}
              </Cell>
              <Cell>{member.email}</Cell>
              <Cell>{t.roles[member.role]}</Cell>
              <Cell>{member.canRefund ? t.yes : t.no}</Cell>
              <Cell>{member.twoFactor ? t.yes : t.no}</Cell>
              <Cell>{memberStatus(member, t)}</Cell>
              <Cell>
                <Link href={`/admin/staff/${encodeURIComponent(member.id)}`} aria-label={t.manageLabel(member.name)} className={TEXT_LINK}>
                  {t.manage}
                </Link>
              </Cell>
            </Row>
          ))}
        </ScrollTable>
      </section>
      <Card title={s.inviteForm.heading} id="invite-heading">
        <div className="flex flex-col gap-4">
          <p>{s.inviteForm.intro}</p>
          <InviteForm action={inviteAction} page={PATH} text={s.inviteForm} mailAvailable={Boolean(getMailer())} />
        </div>
      </Card>
    </AdminPage>
  );
}
