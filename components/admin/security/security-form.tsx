"use client";

import { useActionState } from "react";
import { ErrorMessage } from "@/components/ui/error-summary";
import { TextField } from "@/components/ui/field";
import { LinkButton } from "@/components/ui/link-button";
import { SubmitRow } from "@/components/ui/submit-button";
import { useFocusAfterSubmit } from "@/components/ui/use-focus-after-submit";
import { INITIAL_SECURITY_FORM_STATE, type SecurityFormState } from "../form-states";

export interface SecurityField {
  name: string;
  label: string;
  hint?: string;
  type: "password" | "text";
  autoComplete: string;
  /** A one-time code: digits keyboard on phones, no spell check. */
  code?: boolean;
}

export interface SecurityFormText {
  submit: string;
  submitting: string;
  summaryTitle: string;
  errors: Record<string, string>;
  /** Shown with the recovery codes an enrolment returns. */
  recoveryTitle?: string;
  recoveryIntro?: string;
  continueLabel?: string;
}

/**
 * The second-factor step, enrolment and the password change: a few fields and one error said
 * above them. A client component only for useActionState; without JavaScript the post lands on
 * the page's own URL with the action's answer. After an enrolment it shows the recovery codes once.
 */
export function SecurityForm({
  action,
  page,
  fields,
  text,
  hidden = {},
  continueHref = "/admin",
}: {
  action: (state: SecurityFormState, formData: FormData) => Promise<SecurityFormState>;
  page: string;
  fields: SecurityField[];
  text: SecurityFormText;
  hidden?: Record<string, string>;
  continueHref?: string;
}) {
  const [state, formAction] = useActionState(action, INITIAL_SECURITY_FORM_STATE, page);
  const message = state.error ? (text.errors[state.error] ?? text.errors.invalid) : undefined;
  const summaryRef = useFocusAfterSubmit<HTMLDivElement>(state.submission, Boolean(state.error));

  if (state.recoveryCodes) {
    return (
      <div className="flex flex-col gap-3" role="status">
        <h2 className="text-xl font-semibold">{text.recoveryTitle}</h2>
        <p>{text.recoveryIntro}</p>
        <ul aria-label={text.recoveryTitle} className="grid grid-cols-2 gap-2 font-mono text-lg">
          {state.recoveryCodes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </ul>
        <div>
          <LinkButton href={continueHref}>{text.continueLabel}</LinkButton>
        </div>
      </div>
    );
  }

  // A form kept only to show an answer (the codes after an enrolment, without JavaScript): no fields, nothing to show.
  if (fields.length === 0) return null;

  return (
    <form action={formAction} className="flex flex-col gap-4">
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <ErrorMessage ref={summaryRef} id="security-form-error" titleId="security-error-title" title={text.summaryTitle} message={message} />
      <div key={state.submission} className="flex flex-col gap-4">
        {fields.map((field) => (
          <TextField
            key={field.name}
            name={field.name}
            id={`security-${field.name}`}
            label={field.label}
            hint={field.hint}
            type={field.type}
            autoComplete={field.autoComplete}
            required
            maxLength={field.code ? 20 : 1000}
            {...(field.code ? { inputMode: "text" as const, spellCheck: false, autoCapitalize: "none" } : {})}
            invalid={Boolean(message)}
            describedBy={message ? "security-form-error" : undefined}
          />
        ))}
      </div>
      <SubmitRow pendingLabel={text.submitting}>{text.submit}</SubmitRow>
    </form>
  );
}
