"use client";

import { useActionState } from "react";
import { ShownOnce } from "@/components/ui/shown-once";
import { controlClass, EmailField, Field, RadioGroupField, SelectField, TextField, UrlField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { SubmitRow } from "@/components/ui/submit-button";
import { useFocusAfterSubmit } from "@/components/ui/use-focus-after-submit";
import type { AdminMessages } from "@/lib/i18n/admin-messages";
import { type PartnerConsoleMessages } from "@/lib/i18n/partner-console-messages";
import { fill } from "@/lib/text/template";
import {
  INITIAL_CREDENTIAL_STATE,
  INITIAL_INVITE_ADMIN_STATE,
  INITIAL_PARTNER_NOTIFICATION_STATE,
  INITIAL_PARTNER_RETENTION_STATE,
  INITIAL_PARTNER_SETTINGS_STATE,
  type CredentialState,
  type InviteAdminState,
  type PartnerNotificationState,
  type PartnerRetentionState,
  type PartnerSettingsState,
} from "./form-states";
import { SavedNotice } from "@/components/ui/saved-notice";
import { NotificationUrlFields } from "@/components/admin/notifications/notification-forms";

/*
 * The forms of a partner's page in the operator console: client components only for
 * useActionState, so each answer (a field's error, the agencies to pick from, a link shown once)
 * comes back in place. Without JavaScript the post lands on the page with the action's answer.
 */

type Action<S> = (state: S, formData: FormData) => Promise<S>;

function PartnerField({ partnerId }: { partnerId: string }) {
  return <input type="hidden" name="partnerId" value={partnerId} />;
}

export function PartnerSettingsForm({
  action,
  partnerId,
  current,
  text,
  errorPrefix,
  permalink,
}: {
  action: Action<PartnerSettingsState>;
  partnerId: string;
  current: { name: string; allowedOrigins: string; defaultReturnUrl: string };
  text: PartnerConsoleMessages["settings"];
  errorPrefix: string;
  permalink: string;
}) {
  const [state, formAction] = useActionState(action, INITIAL_PARTNER_SETTINGS_STATE, permalink);
  const values = state.values ?? current;
  const errors = state.errors ?? {};
  const originsError = errors.allowedOrigins
    ? fill(text.errors[errors.allowedOrigins.reason], { line: errors.allowedOrigins.line ?? "" })
    : undefined;
  return (
    <form action={formAction} className="flex flex-col gap-4" noValidate>
      <PartnerField partnerId={partnerId} />
      {state.saved ? <SavedNotice submission={state.submission}>{text.saved}</SavedNotice> : null}
      <TextField
        key={`name-${state.submission}`}
        name="name"
        id="settings-name"
        label={text.name}
        maxLength={100}
        defaultValue={values.name}
        error={errors.name ? text.errors[errors.name] : undefined}
        errorPrefix={errorPrefix}
      />
      <Field id="settings-origins" label={text.origins} hint={text.originsHint} error={originsError} errorPrefix={errorPrefix}>
        {(control) => (
          <textarea
            key={`origins-${state.submission}`}
            {...control}
            name="allowedOrigins"
            rows={4}
            spellCheck={false}
            autoComplete="off"
            defaultValue={values.allowedOrigins}
          />
        )}
      </Field>
      <UrlField
        key={`return-${state.submission}`}
        name="defaultReturnUrl"
        id="settings-return-url"
        label={text.returnUrl}
        hint={text.returnUrlHint}
        defaultValue={values.defaultReturnUrl}
        error={errors.defaultReturnUrl ? text.errors[errors.defaultReturnUrl] : undefined}
        errorPrefix={errorPrefix}
      />
      <SubmitRow pendingLabel={text.submit}>{text.submit}</SubmitRow>
    </form>
  );
}

export function PartnerNotificationForm({
  action,
  partnerId,
  current,
  text,
  adminText,
  errorPrefix,
  permalink,
}: {
  action: Action<PartnerNotificationState>;
  partnerId: string;
  current: string;
  text: PartnerConsoleMessages["notifications"];
  /** The back-office's words for the field and its errors: the same rules. */
  adminText: AdminMessages["notifications"];
  errorPrefix: string;
  permalink: string;
}) {
  const [state, formAction] = useActionState(action, INITIAL_PARTNER_NOTIFICATION_STATE, permalink);
  const error = state.error === "not_found" ? text.notFound : state.error ? adminText.urlErrors[state.error] : undefined;
  return (
    <form action={formAction} className="flex flex-col gap-3">
      <PartnerField partnerId={partnerId} />
      <NotificationUrlFields
        id="partner-notification-url"
        state={state}
        current={current}
        saved={text.saved}
        error={error}
        text={adminText}
        errorPrefix={errorPrefix}
        pendingLabel={adminText.urlSave}
      />
    </form>
  );
}

export function PartnerRetentionForm({
  action,
  partnerId,
  current,
  maxDays,
  text,
  errorPrefix,
  permalink,
}: {
  action: Action<PartnerRetentionState>;
  partnerId: string;
  current: number;
  maxDays: number;
  text: PartnerConsoleMessages["retention"];
  errorPrefix: string;
  permalink: string;
}) {
  const [state, formAction] = useActionState(action, INITIAL_PARTNER_RETENTION_STATE, permalink);
  const max = { max: String(maxDays) };
  const error = state.error === "not_found" ? text.notFound : state.error ? fill(text.errors[state.error], max) : undefined;
  return (
    <form action={formAction} className="flex flex-col gap-3" noValidate>
      <PartnerField partnerId={partnerId} />
      {state.saved ? <SavedNotice submission={state.submission}>{text.saved}</SavedNotice> : null}
      <TextField
        key={state.submission}
        name="retentionDays"
        id="partner-retention-days"
        label={text.label}
        hint={fill(text.hint, max)}
        inputMode="numeric"
        maxLength={6}
        defaultValue={state.days ?? String(current)}
        error={error}
        errorPrefix={errorPrefix}
      />
      <SubmitRow variant="secondary" pendingLabel={text.save}>
        {text.save}
      </SubmitRow>
    </form>
  );
}

export function CredentialForm({
  action,
  partnerId,
  keyPrefix,
  text,
  errorPrefix,
  permalink,
}: {
  action: Action<CredentialState>;
  partnerId: string;
  /** The prefix of this platform's keys (fk_live_ with the production API, fk_test_ with the sandbox). */
  keyPrefix: string;
  text: PartnerConsoleMessages["credential"];
  errorPrefix: string;
  permalink: string;
}) {
  const [state, formAction] = useActionState(action, INITIAL_CREDENTIAL_STATE, permalink);
  const resultRef = useFocusAfterSubmit<HTMLDivElement>(state.submission);
  const error = state.error
    ? fill(text.errors[state.error.reason], { reason: state.error.apiReason ?? "—", prefix: keyPrefix })
    : undefined;
  return (
    <div className="flex flex-col gap-3">
      <div ref={resultRef} tabIndex={-1}>
        {state.saved ? (
          <Notice tone="success" live>
            {text.saved}
          </Notice>
        ) : null}
        {error ? (
          <Notice tone="error" live>
            {error}
          </Notice>
        ) : null}
      </div>
      {state.pick ? (
        <form action={formAction} className="flex flex-col gap-3 rounded-card border-2 border-line p-4">
          <PartnerField partnerId={partnerId} />
          <input type="hidden" name="kind" value={state.pick.kind} />
          {state.pick.pending ? <input type="hidden" name="pending" value={state.pick.pending} /> : null}
          <p>{text.pickAgency}</p>
          <SelectField
            name="agencyId"
            id="credential-agency"
            label={text.agency}
            options={state.pick.agencies.map((agency) => ({ value: String(agency.id), label: agency.label }))}
          />
          <SubmitRow pendingLabel={text.verifying}>{text.saveAgency}</SubmitRow>
        </form>
      ) : null}
      <form action={formAction} className="flex flex-col gap-3" autoComplete="off">
        <PartnerField partnerId={partnerId} />
        <RadioGroupField
          name="kind"
          legend={text.kind}
          errorPrefix={errorPrefix}
          defaultValue="agency"
          options={[
            { value: "agency", label: text.kinds.agency },
            { value: "group", label: text.kinds.group },
            { value: "deployment", label: text.kinds.deployment },
          ]}
        />
        <TextField
          key={state.submission}
          name="key"
          id="credential-key"
          label={text.key}
          hint={fill(text.keyHint, { prefix: keyPrefix })}
          // Typed once and never shown: a password field, which the browser does not keep.
          type="password"
          autoComplete="off"
          spellCheck={false}
          maxLength={300}
        />
        <SubmitRow pendingLabel={text.verifying}>{text.submit}</SubmitRow>
      </form>
    </div>
  );
}

export function InviteAdminForm({
  action,
  partnerId,
  text,
  copy,
  errorPrefix,
  permalink,
}: {
  action: Action<InviteAdminState>;
  partnerId: string;
  text: PartnerConsoleMessages["admin"];
  copy: { copy: string; copied: string };
  errorPrefix: string;
  permalink: string;
}) {
  const [state, formAction] = useActionState(action, INITIAL_INVITE_ADMIN_STATE, permalink);
  const resultRef = useFocusAfterSubmit<HTMLDivElement>(state.submission);
  const error = state.error ? text.errors[state.error] : undefined;
  return (
    <div className="flex flex-col gap-3">
      <div ref={resultRef} tabIndex={-1}>
        {state.link ? (
          <ShownOnce title={text.linkTitle} intro={text.linkIntro} value={state.link} copy={copy}>
            <input
              readOnly
              aria-label={text.linkTitle}
              data-testid="admin-invitation-link"
              value={state.link}
              className={controlClass({ className: "font-mono text-sm" })}
            />
          </ShownOnce>
        ) : null}
        {error && state.error !== "invalid_email" && state.error !== "invalid_name" ? (
          <Notice tone="error" live>
            {error}
          </Notice>
        ) : null}
      </div>
      <form action={formAction} className="flex flex-col gap-3" noValidate>
        <PartnerField partnerId={partnerId} />
        <EmailField
          key={`email-${state.submission}`}
          id="admin-email"
          label={text.email}
          autoComplete="off"
          defaultValue={state.values?.email ?? ""}
          error={state.error === "invalid_email" ? error : undefined}
          errorPrefix={errorPrefix}
        />
        <TextField
          key={`name-${state.submission}`}
          name="name"
          id="admin-name"
          label={text.name}
          autoComplete="off"
          maxLength={100}
          defaultValue={state.values?.name ?? ""}
          error={state.error === "invalid_name" ? error : undefined}
          errorPrefix={errorPrefix}
        />
        <SubmitRow pendingLabel={text.submit}>{text.submit}</SubmitRow>
      </form>
    </div>
  );
}
