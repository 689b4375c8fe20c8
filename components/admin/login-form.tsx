"use client";

import { useActionState } from "react";
import { ErrorMessage } from "@/components/ui/error-summary";
import { EmailField, TextField } from "@/components/ui/field";
import { SubmitRow } from "@/components/ui/submit-button";
import { useFocusAfterSubmit } from "@/components/ui/use-focus-after-submit";
import type { LoginFormMessages } from "@/lib/i18n/admin-messages";
import { INITIAL_LOGIN_STATE, type LoginState } from "./form-states";

/**
 * The sign-in form. A client component only for useActionState; without JavaScript the post lands
 * on the same page (the permalink), rendered with the action's answer.
 */
export function LoginForm({
  action,
  text,
  next,
}: {
  action: (state: LoginState, formData: FormData) => Promise<LoginState>;
  text: LoginFormMessages;
  next: string | undefined;
}) {
  const [state, formAction] = useActionState(action, INITIAL_LOGIN_STATE, "/admin/login");
  const message = state.error ? text[state.error] : undefined;
  // The one error is said above the fields, and both fields point to it.
  const errorShownAbove = { invalid: Boolean(message), describedBy: message ? "login-error" : undefined };
  const summaryRef = useFocusAfterSubmit<HTMLDivElement>(state.submission, Boolean(state.error));

  return (
    <form action={formAction} className="flex flex-col gap-4">
      {next ? <input type="hidden" name="next" value={next} /> : null}
      <ErrorMessage ref={summaryRef} id="login-error" titleId="login-error-title" title={text.summaryTitle} message={message} />
      {/* Remounted after each submit so the e-mail shows what was sent and the password is empty. */}
      <div key={state.submission} className="flex flex-col gap-4">
        <EmailField
          id="login-email"
          label={text.email}
          autoComplete="username"
          required
          defaultValue={state.email ?? ""}
          {...errorShownAbove}
        />
        <TextField
          id="login-password"
          name="password"
          label={text.password}
          type="password"
          autoComplete="current-password"
          required
          {...errorShownAbove}
        />
      </div>
      <SubmitRow pendingLabel={text.submitting}>{text.submit}</SubmitRow>
    </form>
  );
}
