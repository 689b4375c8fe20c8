import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AdminPage } from "@/app/admin/admin-page";
import { MemberLinkForm } from "@/components/admin/staff/member-link-form";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CheckboxField, SelectField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { TextLink } from "@/components/ui/text-link";
import { formatDateTime } from "@/lib/backoffice/common/format";
import { findMember, pendingSecondFactorReset } from "@/lib/identity/members";
import { getMailer } from "@/lib/mail/mailer";
import { fill } from "@/lib/text/template";
import { requirePermission } from "@/lib/identity/staff";
import { getAdminMessages } from "@/lib/i18n/admin-messages";
import { getLocale } from "@/lib/i18n/server";
import { getStaffMessages } from "@/lib/i18n/staff-messages";
import {
  changeMemberAction,
  reissueInvitationAction,
  removeMemberAction,
  confirmSecondFactorResetAction,
  resetSecondFactorAction,
  setMemberDisabledAction,
} from "./actions";
import type { IdPageProps } from "@/lib/http/page-props";

export async function generateMetadata(): Promise<Metadata> {
  return { title: getStaffMessages(await getLocale()).meta.member };
}

/**
 * One member of the partner's staff, for its administrators: their role and refund permission,
 * disabling (or enabling) and removing them, resetting a lost second factor, a new invitation link.
 * Another partner's member (or an operator) is "not found", whatever id is typed.
 */
export default async function MemberPage({ params, searchParams }: IdPageProps) {
  const { id } = await params;
  const query = await searchParams;
  const path = `/admin/staff/${encodeURIComponent(id)}`;
  const staff = await requirePermission("manage-staff", path);
  const member = await findMember(staff.db, staff.partner.id, id);
  if (!member) notFound();
  const locale = await getLocale();
  const m = getAdminMessages(locale);
  const s = getStaffMessages(locale);
  const t = s.staff;
  const u = s.member;
  const self = member.id === staff.user.id;
  const pending = member.twoFactor ? await pendingSecondFactorReset(staff.db, staff.partner.id, member.id) : undefined;
  const pendingText = pending
    ? fill(pending.requestedBy.id === staff.user.id ? u.pendingOwn : u.pendingIntro, {
        name: pending.requestedBy.name,
        at: formatDateTime(pending.requestedAt, locale),
        expires: formatDateTime(pending.expiresAt, locale),
      })
    : undefined;
  const resetIntro = getMailer() ? u.resetIntro : `${u.resetIntro} ${u.resetNoMail}`;
  // An enabled member gets one kind of link: with a second factor, a reset of it (the
  // administrator's own code is asked; another administrator's is requested, then confirmed by a
  // second one, never the one who asked); without one, their invitation again.
  const link = member.disabledAt
    ? undefined
    : member.twoFactor
      ? pending
        ? {
            heading: u.pendingHeading,
            headingId: "reset-heading",
            intro: `${pendingText} ${getMailer() ? "" : u.resetNoMail}`.trim(),
            action: pending.requestedBy.id === staff.user.id ? undefined : confirmSecondFactorResetAction,
            withCode: true,
            submit: s.linkForm.confirm,
            testId: "reset-link",
          }
        : {
            heading: u.resetHeading,
            headingId: "reset-heading",
            intro: resetIntro,
            action: resetSecondFactorAction,
            withCode: true,
            submit: s.linkForm.reset,
            testId: "reset-link",
          }
      : {
          heading: u.reissueHeading,
          headingId: "reissue-heading",
          intro: u.reissueIntro,
          action: reissueInvitationAction,
          withCode: false,
          submit: s.linkForm.reissue,
          testId: "invitation-link",
        };
  const error = typeof query.error === "string" && query.error in t.errors ? t.errors[query.error as keyof typeof t.errors] : undefined;
  const ended = Number(typeof query.ended === "string" ? query.ended : 0);
  const done =
    query.done === "changed"
      ? t.done.changed
      : query.done === "disabled"
        ? t.done.disabled(Number.isSafeInteger(ended) && ended >= 0 ? ended : 0)
        : query.done === "enabled"
          ? t.done.enabled
          : undefined;
  const status = member.disabledAt ? t.statuses.disabled : member.twoFactor ? t.statuses.active : t.statuses.invited;

  return (
    <AdminPage staff={staff} locale={locale} m={m} path={path} section="staff">
      <p>
        <TextLink href="/admin/staff">{u.back}</TextLink>
      </p>
      <div className="flex flex-col gap-2">
        <h1 className="text-3xl font-bold">
          {member.name} {self ? <span className="text-muted">{t.you}</span> : null}
        </h1>
        <p className="text-muted">{member.email}</p>
      </div>
      {done ? <Notice tone="success">{done}</Notice> : null}
      {error ? <Notice tone="error">{error}</Notice> : null}
      <Card title={u.details} id="details-heading">
        <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
          <dt className="text-muted">{t.columns.role}</dt>
          <dd className="font-semibold">{t.roles[member.role]}</dd>
          <dt className="text-muted">{t.columns.refund}</dt>
          <dd className="font-semibold">{member.canRefund ? t.yes : t.no}</dd>
          <dt className="text-muted">{t.columns.dataRequests}</dt>
          <dd className="font-semibold">{member.canDataRequests ? t.yes : t.no}</dd>
          <dt className="text-muted">{t.columns.twoFactor}</dt>
          <dd className="font-semibold">{member.twoFactor ? t.yes : t.no}</dd>
          <dt className="text-muted">{t.columns.status}</dt>
          <dd className="font-semibold" data-testid="member-status">
            {status}
          </dd>
          <dt className="text-muted">{u.created}</dt>
          <dd className="font-semibold">{formatDateTime(member.createdAt, locale)}</dd>
        </dl>
      </Card>
      <Card title={u.roleHeading} id="role-heading">
        <form action={changeMemberAction} className="flex flex-col gap-4">
          <input type="hidden" name="memberId" value={member.id} />
          <SelectField
            name="role"
            id="member-role"
            label={u.roleLabel}
            defaultValue={member.role}
            options={[
              { value: "agent", label: t.roles.agent },
              { value: "admin", label: t.roles.admin },
            ]}
          />
          <CheckboxField
            name="canRefund"
            id="member-can-refund"
            defaultChecked={member.canRefund}
            label={u.refundLabel}
            hint={u.refundHint}
          />
          <CheckboxField
            name="canDataRequests"
            id="member-can-data-requests"
            defaultChecked={member.canDataRequests}
            label={u.dataRequestsLabel}
            hint={u.dataRequestsHint}
          />
          <div>
            <Button stretch={false}>{u.roleSubmit}</Button>
          </div>
        </form>
      </Card>
      {self ? null : (
        <>
          {link ? (
            <Card title={link.heading} id={link.headingId}>
              <div className="flex flex-col gap-4">
                <p>{link.intro}</p>
                {link.action ? (
                  <MemberLinkForm
                    action={link.action}
                    page={path}
                    memberId={member.id}
                    text={s.linkForm}
                    withCode={link.withCode}
                    submit={link.submit}
                    testId={link.testId}
                  />
                ) : null}
              </div>
            </Card>
          ) : null}
          <Card title={u.accessHeading} id="access-heading">
            <form action={setMemberDisabledAction} className="flex flex-col gap-3">
              <input type="hidden" name="memberId" value={member.id} />
              <input type="hidden" name="disabled" value={member.disabledAt ? "0" : "1"} />
              <p>{member.disabledAt ? u.enableIntro : u.disableIntro}</p>
              <div>
                <Button variant="secondary" stretch={false}>
                  {member.disabledAt ? u.enableSubmit : u.disableSubmit}
                </Button>
              </div>
            </form>
          </Card>
          <Card title={u.removeHeading} id="remove-heading">
            <form action={removeMemberAction} className="flex flex-col gap-3">
              <input type="hidden" name="memberId" value={member.id} />
              <p>{u.removeIntro}</p>
              <CheckboxField name="confirm" id="member-remove-confirm" required label={u.removeConfirm} />
              <div>
                <Button variant="secondary" stretch={false}>
                  {u.removeSubmit}
                </Button>
              </div>
            </form>
          </Card>
        </>
      )}
    </AdminPage>
  );
}
