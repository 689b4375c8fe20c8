"use client";

import { useActionState } from "react";
import { ShownOnce } from "@/components/ui/shown-once";
import { UrlField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { SubmitRow } from "@/components/ui/submit-button";
import { useFocusAfterSubmit } from "@/components/ui/use-focus-after-submit";
import type { AdminMessages } from "@/lib/i18n/admin-messages";
import {
  INITIAL_NOTIFICATION_URL_STATE,
  INITIAL_ROTATE_SECRET_STATE,
  INITIAL_TEST_NOTIFICATION_STATE,
  type NotificationUrlState,
  type RotateSecretState,
  type TestNotificationState,
} from "../form-states";
import { fill } from "@/lib/text/template";
import { SavedNotice } from "@/components/ui/saved-notice";

/*
 * The notification settings' forms (app/admin/notifications): client components only for
 * useActionState, so each answer (a field error, the new secret shown once, a test's result) comes
 * back in place. Without JavaScript the post lands on the page's URL with the action's answer.
 */

type Text = Omit<AdminMessages["notifications"], never>;

export function NotificationUrlForm({
  action,
  current,
  text,
  errorPrefix,
}: {
  action: (state: NotificationUrlState, formData: FormData) => Promise<NotificationUrlState>;
  current: string;
  text: Text;
  errorPrefix: string;
}) {
  const [state, formAction] = useActionState(action, INITIAL_NOTIFICATION_URL_STATE, "/admin/notifications");
  return (
    <form action={formAction} className="flex flex-col gap-3">
      <NotificationUrlFields
        id="notification-url"
        state={state}
        current={current}
        saved={text.urlSaved}
        error={state.error ? text.urlErrors[state.error] : undefined}
        text={text}
        errorPrefix={errorPrefix}
        pendingLabel={text.testSending}
        autoComplete="url"
        autoFocus={Boolean(state.error)}
      />
    </form>
  );
}

/**
 * A notification URL's field and its save button, with the answer of the last save: the
 * back-office's own setting and a partner's on the operator console's page are the same setting,
 * under the same rules and words.
 */
export function NotificationUrlFields({
  id,
  state,
  current,
  saved,
  error,
  text,
  errorPrefix,
  pendingLabel,
  autoComplete,
  autoFocus,
}: {
  id: string;
  state: { submission: number; saved?: boolean; url?: string };
  current: string;
  saved: string;
  error: string | undefined;
  text: Text;
  errorPrefix: string;
  pendingLabel: string;
  autoComplete?: string;
  autoFocus?: boolean;
}) {
  return (
    <>
      {state.saved ? <SavedNotice submission={state.submission}>{saved}</SavedNotice> : null}
      <UrlField
        key={state.submission}
        name="notificationUrl"
        id={id}
        label={text.urlLabel}
        hint={text.urlHint}
        autoComplete={autoComplete}
        defaultValue={state.url ?? current}
        error={error}
        errorPrefix={errorPrefix}
        autoFocus={autoFocus}
      />
      <SubmitRow variant="secondary" pendingLabel={pendingLabel}>
        {text.urlSave}
      </SubmitRow>
    </>
  );
}

/**
 * Generating or rotating the signing secret. Whether there is one is said here, from the page and
 * the action's answer together: right after the first secret is generated the page (rendered before
 * it) would still say there is none.
 */
export function RotateSecretForm({
  action,
  text,
  hasSecret,
}: {
  action: (state: RotateSecretState, formData: FormData) => Promise<RotateSecretState>;
  text: Text;
  hasSecret: boolean;
}) {
  const [state, formAction] = useActionState(action, INITIAL_ROTATE_SECRET_STATE, "/admin/notifications");
  const resultRef = useFocusAfterSubmit<HTMLDivElement>(state.submission);
  return (
    <div className="flex flex-col gap-3">
      <p>{hasSecret || state.secret ? text.secretSet : text.secretNotSet}</p>
      {state.secret ? (
        <ShownOnce
          focusRef={resultRef}
          title={text.newSecretTitle}
          intro={text.newSecretIntro}
          value={state.secret}
          copy={text}
          after={state.previousValidUntil ? <p>{fill(text.newSecretPrevious, { until: state.previousValidUntil })}</p> : null}
        >
          <code id="new-signing-secret" className="rounded-md bg-surface px-2 py-1 font-mono text-sm break-all">
            {state.secret}
          </code>
        </ShownOnce>
      ) : null}
      {state.error ? (
        <Notice tone="error" live>
          {text.rotateFailed}
        </Notice>
      ) : null}
      <form action={formAction} className="flex flex-col gap-2">
        <p className="text-sm text-muted">{text.rotateHint}</p>
        <SubmitRow variant="secondary" pendingLabel={text.rotating}>
          {text.rotate}
        </SubmitRow>
      </form>
    </div>
  );
}

export function TestNotificationForm({
  action,
  text,
}: {
  action: (state: TestNotificationState, formData: FormData) => Promise<TestNotificationState>;
  text: Text;
}) {
  const [state, formAction] = useActionState(action, INITIAL_TEST_NOTIFICATION_STATE, "/admin/notifications");
  const answered = state.submission > 0 && state.ok !== undefined;
  return (
    <form action={formAction} className="flex flex-col gap-2">
      <p className="text-sm text-muted">{text.testHint}</p>
      {answered ? (
        state.ok ? (
          <Notice tone="success" live>
            {fill(text.testOk, { status: state.status ?? "" })}
          </Notice>
        ) : (
          <Notice tone="error" live title={text.testFailed}>
            {fill(text.failures[state.failure ?? "network"], { status: state.status ?? "" })}
          </Notice>
        )
      ) : null}
      <SubmitRow pendingLabel={text.testSending}>{text.testSend}</SubmitRow>
    </form>
  );
}
