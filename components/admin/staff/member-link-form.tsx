"use client";

import { useActionState } from "react";
import { ErrorSummary } from "@/components/ui/error-summary";
import { TextField } from "@/components/ui/field";
import { SubmitRow } from "@/components/ui/submit-button";
import { useFocusAfterSubmit } from "@/components/ui/use-focus-after-submit";
import type { LinkFormMessages } from "@/lib/i18n/staff-messages";
import { CopyLink } from "../copy-link";
import { INITIAL_MEMBER_LINK_STATE, type MemberLinkState } from "../form-states";
import { fill } from "@/lib/text/template";

/**
 * A form that gives a member a new one-time link: resetting their second factor (with the
 * administrator's own code) or a new invitation. The link is shown once, in the answer; after a
 * reset with a mail server it goes to the member by e-mail and the answer says only "sent".
 */
export function MemberLinkForm({
  action,
  page,
  memberId,
  text,
  withCode,
  submit,
  testId,
}: {
  action: (state: MemberLinkState, formData: FormData) => Promise<MemberLinkState>;
  page: string;
  memberId: string;
  text: LinkFormMessages;
  /** The administrator's own code is asked (a second-factor reset). */
  withCode: boolean;
  submit: string;
  testId: string;
}) {
  const [state, formAction] = useActionState(action, INITIAL_MEMBER_LINK_STATE, page);
  const message = state.error ? ((text.errors as Record<string, string>)[state.error] ?? text.errors.invalid) : undefined;
  const summaryRef = useFocusAfterSubmit<HTMLDivElement>(state.submission, Boolean(state.error));
  if (state.requested) {
    return (
      <div role="status" className="flex flex-col gap-3" data-testid={testId}>
        <h3 className="text-lg font-semibold">{text.requestedTitle}</h3>
        <p>{text.requested}</p>
      </div>
    );
  }
  if (state.sent) {
    return (
      <div role="status" className="flex flex-col gap-3" data-testid={testId}>
        <h3 className="text-lg font-semibold">{text.sentTitle}</h3>
        {state.ended ? <p>{text.ended}</p> : null}
        <p>{fill(text.sent, { expires: state.expires ?? "" })}</p>
      </div>
    );
  }
  if (state.link) {
    return (
      <div role="status" className="flex flex-col gap-3" data-testid={testId}>
        <h3 className="text-lg font-semibold">{text.linkTitle}</h3>
        {state.ended ? <p>{text.ended}</p> : null}
        {state.shownBecause ? <p>{state.shownBecause === "no_mail" ? text.noMail : text.sendFailed}</p> : null}
        <p>{fill(text.linkIntro, { expires: state.expires ?? "" })}</p>
        <CopyLink id={`${testId}-url`} url={state.link} label={text.linkLabel} text={text} />
      </div>
    );
  }
  return (
    <form action={formAction} className="flex flex-col gap-4">
      <input type="hidden" name="memberId" value={memberId} />
      {message ? (
        <ErrorSummary ref={summaryRef} titleId={`${testId}-error-title`} title={text.summaryTitle} role="alert" focusable>
          <p id={`${testId}-error`} className="mt-1">
            {message}
          </p>
        </ErrorSummary>
      ) : null}
      {withCode ? (
        <div key={state.submission}>
          <TextField
            name="code"
            id={`${testId}-code`}
            label={text.code}
            hint={text.codeHint}
            autoComplete="one-time-code"
            inputMode="numeric"
            spellCheck={false}
            required
            maxLength={20}
            invalid={Boolean(message)}
            describedBy={message ? `${testId}-error` : undefined}
          />
        </div>
      ) : null}
      <SubmitRow pendingLabel={text.submitting} variant="secondary">
        {submit}
      </SubmitRow>
    </form>
  );
}
