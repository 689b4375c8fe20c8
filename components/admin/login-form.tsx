"use client";

import { useActionState, useEffect, useRef } from "react";
import { SubmitButton } from "@/components/checkout/submit-button";
import type { LoginFormMessages } from "@/lib/i18n/admin-messages";
import { INITIAL_LOGIN_STATE, type LoginState } from "./form-states";

const CONTROL = "block min-h-11 w-full rounded-md border-2 border-line bg-surface px-3 py-2 text-base text-ink aria-invalid:border-danger";

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
  const summaryRef = useRef<HTMLDivElement>(null);
  const message = state.error ? text[state.error] : undefined;

  useEffect(() => {
    if (state.submission > 0 && state.error) summaryRef.current?.focus();
  }, [state]);

  return (
    <form action={formAction} className="flex flex-col gap-4">
      {next ? <input type="hidden" name="next" value={next} /> : null}
      {message ? (
        <div
          ref={summaryRef}
          tabIndex={-1}
          autoFocus
          role="alert"
          aria-labelledby="login-error-title"
          className="rounded-card border-4 border-danger bg-surface p-4"
        >
          <h2 id="login-error-title" className="text-lg font-bold">
            {text.summaryTitle}
          </h2>
          <p id="login-error" className="mt-1">
            {message}
          </p>
        </div>
      ) : null}
      {/* Remounted after each submit so the e-mail shows what was sent and the password is empty. */}
      <div key={state.submission} className="flex flex-col gap-4">
        <div className="flex flex-col gap-1">
          <label htmlFor="login-email" className="font-semibold">
            {text.email}
          </label>
          <input
            id="login-email"
            name="email"
            type="email"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            required
            maxLength={254}
            defaultValue={state.email ?? ""}
            aria-invalid={message ? true : undefined}
            aria-describedby={message ? "login-error" : undefined}
            className={CONTROL}
          />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor="login-password" className="font-semibold">
            {text.password}
          </label>
          <input
            id="login-password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            aria-invalid={message ? true : undefined}
            aria-describedby={message ? "login-error" : undefined}
            className={CONTROL}
          />
        </div>
      </div>
      <div>
        <SubmitButton pendingLabel={text.submitting}>{text.submit}</SubmitButton>
      </div>
    </form>
  );
}
