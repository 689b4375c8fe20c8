"use client";

import { useActionState } from "react";
import { ErrorMessage } from "@/components/ui/error-summary";
import { CheckboxField, EmailField, RadioGroupField, SelectField, TextField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { SubmitRow } from "@/components/ui/submit-button";
import { useFocusAfterSubmit } from "@/components/ui/use-focus-after-submit";
import type { InviteFormMessages } from "@/lib/i18n/staff-messages";
import { CopyLink } from "../copy-link";
import { INITIAL_INVITE_STATE, type InviteState } from "../form-states";
import { fill } from "@/lib/text/template";

/**
 * Inviting someone to the partner's staff: e-mail, name, role, the refund permission and how the
 * link reaches them. The answer shows the one-time link once (or where it was e-mailed). A client
 * component only for useActionState; without JavaScript the post lands on the page with the answer.
 */
export function InviteForm({
  action,
  page,
  text,
  mailAvailable,
}: {
  action: (state: InviteState, formData: FormData) => Promise<InviteState>;
  page: string;
  text: InviteFormMessages;
  mailAvailable: boolean;
}) {
  const [state, formAction] = useActionState(action, INITIAL_INVITE_STATE, page);
  const message = state.error ? (text.errors[state.error] ?? text.errors.invalid) : undefined;
  const summaryRef = useFocusAfterSubmit<HTMLDivElement>(state.submission, Boolean(state.error));
  const values = state.values;
  // The one error is said above the fields; the field it is about points to it.
  const errorShownAbove = (field: "email" | "name") => {
    const invalid =
      (field === "email" && (state.error === "invalid_email" || state.error === "email_taken")) ||
      (field === "name" && state.error === "invalid_name");
    return { invalid, describedBy: invalid ? "invite-error" : undefined };
  };

  return (
    <div className="flex flex-col gap-4">
      {state.link || state.sentTo ? (
        <div role="status" className="flex flex-col gap-3" data-testid="invitation-result">
          {state.sentTo && !state.sendFailed ? (
            <Notice tone="success" title={text.sentTitle}>
              {fill(text.sentIntro, { to: state.sentTo, expires: state.expires ?? "" })}
            </Notice>
          ) : null}
          {state.link ? (
            <>
              <h3 className="text-lg font-semibold">{fill(text.linkTitle, { name: state.name ?? "" })}</h3>
              <p>{fill(state.sendFailed ? text.sendFailed : text.linkIntro, { expires: state.expires ?? "" })}</p>
              <CopyLink id="invitation-link" url={state.link} label={text.linkLabel} text={text} />
            </>
          ) : null}
        </div>
      ) : null}
      <form action={formAction} className="flex flex-col gap-4">
        <ErrorMessage ref={summaryRef} id="invite-error" titleId="invite-error-title" title={text.summaryTitle} message={message} />
        {/* Remounted after each submit: an invitation made empties the form; an error keeps what was typed. */}
        <div key={state.submission} className="flex flex-col gap-4">
          <EmailField
            id="invite-email"
            label={text.email}
            autoComplete="off"
            required
            defaultValue={values?.email ?? ""}
            {...errorShownAbove("email")}
          />
          <TextField
            name="name"
            id="invite-name"
            label={text.name}
            autoComplete="off"
            required
            maxLength={100}
            defaultValue={values?.name ?? ""}
            {...errorShownAbove("name")}
          />
          <SelectField
            name="role"
            id="invite-role"
            label={text.role}
            defaultValue={values?.role ?? "agent"}
            options={[
              { value: "agent", label: text.roleAgent },
              { value: "admin", label: text.roleAdmin },
            ]}
          />
          <CheckboxField name="canRefund" id="invite-can-refund" label={text.canRefund} defaultChecked={values?.canRefund ?? false} />
          {mailAvailable ? (
            <RadioGroupField
              name="delivery"
              legend={text.delivery}
              errorPrefix={text.errorPrefix}
              error={state.error === "limited" ? message : undefined}
              defaultValue={values?.delivery ?? "email"}
              options={[
                { value: "email", label: text.deliveryEmail },
                { value: "link", label: text.deliveryLink },
              ]}
            />
          ) : (
            <>
              <input type="hidden" name="delivery" value="link" />
              <p className="text-sm text-muted">{text.noMail}</p>
            </>
          )}
        </div>
        <SubmitRow pendingLabel={text.submitting}>{text.submit}</SubmitRow>
      </form>
    </div>
  );
}
