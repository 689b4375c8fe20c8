"use client";

import { useActionState } from "react";
import { Notice } from "@/components/ui/notice";
import { SubmitRow } from "@/components/ui/submit-button";
import type { CancelFormMessages } from "@/lib/i18n/admin-messages";
import { INITIAL_CANCEL_STATE, type CancelState, type ReasonSettings } from "./form-states";
import { ReasonField } from "./reason-field";

/**
 * Cancelling an operation, with an optional reason counted as it is typed. The server checks the
 * reason's length again and asks the API; a refusal (OPERATION_NOT_CANCELLABLE) comes back as the
 * operation page, explained.
 */
export function CancelForm({
  action,
  operationId,
  permalink,
  text,
  reason,
}: {
  action: (state: CancelState, formData: FormData) => Promise<CancelState>;
  operationId: string;
  permalink: string;
  text: CancelFormMessages;
  reason: ReasonSettings;
}) {
  const [state, formAction] = useActionState(action, INITIAL_CANCEL_STATE, permalink);
  return (
    <form action={formAction} className="flex flex-col gap-4">
      <input type="hidden" name="operationId" value={operationId} />
      {state.error === "unavailable" ? (
        <Notice tone="error" live>
          {text.unavailable}
        </Notice>
      ) : null}
      <ReasonField
        key={state.submission}
        id="cancel-reason"
        settings={reason}
        defaultValue={state.reason}
        error={state.error === "too_long" ? text.reasonTooLong : state.error === "characters" ? text.reasonCharacters : undefined}
        errorPrefix={text.errorPrefix}
      />
      <SubmitRow pendingLabel={text.submitting} variant="secondary">
        {text.submit}
      </SubmitRow>
    </form>
  );
}
