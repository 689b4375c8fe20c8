"use client";

import { useActionState } from "react";
import { ErrorSummary } from "@/components/ui/error-summary";
import { TextField } from "@/components/ui/field";
import { SubmitRow } from "@/components/ui/submit-button";
import type { PartnerConsoleMessages } from "@/lib/i18n/partner-console-messages";
import { INITIAL_CREATE_PARTNER_STATE, type CreatePartnerState } from "./form-states";

/** The new partner's id and name; each error said by its field, and listed above the form. */
export function CreatePartnerForm({
  action,
  text,
  errorPrefix,
}: {
  action: (state: CreatePartnerState, formData: FormData) => Promise<CreatePartnerState>;
  text: PartnerConsoleMessages["create"];
  errorPrefix: string;
}) {
  const [state, formAction] = useActionState(action, INITIAL_CREATE_PARTNER_STATE, "/operator/partners/new");
  const idError = state.errors?.id ? text.errors[state.errors.id] : undefined;
  const nameError = state.errors?.name ? text.errors[state.errors.name] : undefined;
  return (
    <form action={formAction} className="flex flex-col gap-4" noValidate>
      {idError || nameError ? (
        <ErrorSummary titleId="create-partner-errors" title={text.summaryTitle} role="group" focusable>
          <ul className="mt-1 list-disc pl-5">
            {idError ? (
              <li>
                <a href="#partner-id">{idError}</a>
              </li>
            ) : null}
            {nameError ? (
              <li>
                <a href="#partner-name">{nameError}</a>
              </li>
            ) : null}
          </ul>
        </ErrorSummary>
      ) : null}
      <TextField
        key={`id-${state.submission}`}
        name="id"
        id="partner-id"
        label={text.id}
        hint={text.idHint}
        autoComplete="off"
        spellCheck={false}
        maxLength={40}
        defaultValue={state.values?.id ?? ""}
        error={idError}
        errorPrefix={errorPrefix}
      />
      <TextField
        key={`name-${state.submission}`}
        name="name"
        id="partner-name"
        label={text.name}
        hint={text.nameHint}
        autoComplete="organization"
        maxLength={100}
        defaultValue={state.values?.name ?? ""}
        error={nameError}
        errorPrefix={errorPrefix}
      />
      <SubmitRow pendingLabel={text.submit}>{text.submit}</SubmitRow>
    </form>
  );
}
