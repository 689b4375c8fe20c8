import { useState } from "react";
import { TextField } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { SubmitRow } from "@/components/ui/submit-button";
import { reviewRefund, type RefundBase } from "@/lib/backoffice/refunds/review";
import { fill } from "@/lib/text/template";
import type { RefundErrors } from "../form-states";
import { ReasonField } from "../reason-field";
import { BreakdownTable } from "./breakdown-table";
import { moneyFormatter, StepSection, type FormAction, type StepProps } from "./step";

const FEES = ["agencyFee", "providerFee"] as const;

/**
 * The charges to keep, with the total to refund recomputed in the browser as they are typed (only
 * a preview: the server recomputes from a fresh breakdown when the form is sent).
 */
export function EditStep({ flow, state, base, headingRef, formAction }: StepProps<"edit"> & { base: RefundBase; formAction: FormAction }) {
  const { text } = flow;
  const money = moneyFormatter(flow, base);
  const [fees, setFees] = useState({ agencyFee: state.values?.agencyFee ?? "", providerFee: state.values?.providerFee ?? "" });
  const errors: RefundErrors = state.errors ?? {};
  const preview = reviewRefund(base, { ...fees, reason: "" });
  const errorText = (field: keyof RefundErrors) => {
    const code = errors[field];
    return code === "amount"
      ? text.amountInvalid
      : code === "exceeds"
        ? text.exceeds
        : code === "too_long"
          ? text.reasonTooLong
          : code === "characters"
            ? text.reasonCharacters
            : undefined;
  };
  const hasErrors = Object.keys(errors).length > 0;

  return (
    <StepSection title={text.breakdownHeading} headingRef={headingRef} autoFocus={state.submission > 0} roomy>
      <BreakdownTable flow={flow} base={base} caption={text.breakdownHeading} />
      <form action={formAction} noValidate className="flex flex-col gap-4">
        <input type="hidden" name="operationId" value={flow.operationId} />
        <input type="hidden" name="intent" value="review" />
        {hasErrors ? (
          <Notice tone="error" live title={text.summaryTitle}>
            <ul className="list-disc pl-5">
              {([...FEES, "reason"] as const).map((field) =>
                errors[field] ? (
                  <li key={field}>
                    <a href={`#refund-${field}`} className="font-semibold text-danger underline">
                      {errorText(field)}
                    </a>
                  </li>
                ) : null,
              )}
            </ul>
          </Notice>
        ) : null}
        {FEES.map((fee) => (
          <TextField
            key={fee}
            id={`refund-${fee}`}
            name={fee}
            label={text[fee]}
            hint={text.feeHint}
            inputMode="decimal"
            autoComplete="off"
            value={fees[fee]}
            onChange={(event) => setFees({ ...fees, [fee]: event.target.value })}
            error={errorText(fee)}
            errorPrefix={text.errorPrefix}
            controlClassName="sm:max-w-56"
          />
        ))}
        <p className="rounded-md bg-canvas px-3 py-2">
          <output htmlFor="refund-agencyFee refund-providerFee" aria-live="polite" className="font-semibold">
            {fill(text.liveTotal, { total: preview.totalToRefundCents === undefined ? "—" : money(preview.totalToRefundCents) })}
          </output>
          {preview.totalToRefundCents !== undefined && preview.totalToRefundCents < 0 ? (
            <span className="mt-1 block font-semibold text-danger">{text.exceeds}</span>
          ) : null}
        </p>
        <ReasonField
          id="refund-reason"
          settings={flow.reason}
          defaultValue={state.values?.reason}
          error={errorText("reason")}
          errorPrefix={text.errorPrefix}
        />
        <SubmitRow pendingLabel={text.sending}>{text.review}</SubmitRow>
      </form>
    </StepSection>
  );
}
