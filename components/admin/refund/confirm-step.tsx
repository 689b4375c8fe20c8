import { HiddenFields } from "@/components/ui/hidden-fields";
import { Notice } from "@/components/ui/notice";
import { SubmitButton } from "@/components/ui/submit-button";
import type { RefundValues } from "@/lib/backoffice/refunds/review";
import { BreakdownTable } from "./breakdown-table";
import { StepSection, type FormAction, type StepProps } from "./step";

/** The server's own computation, to confirm (the refund goes ahead only if its total still holds) or change. */
export function ConfirmStep({ flow, state, headingRef, formAction }: StepProps<"confirm"> & { formAction: FormAction }) {
  const { text } = flow;
  return (
    <StepSection title={text.confirmHeading} headingRef={headingRef} autoFocus>
      {state.changed ? (
        <Notice tone="warning" live>
          {text.changed}
        </Notice>
      ) : null}
      <p>{text.confirmIntro}</p>
      <BreakdownTable flow={flow} base={state.base} computed={state.computed} caption={text.confirmHeading} />
      <dl>
        <dt className="font-semibold">{text.reasonShown}</dt>
        <dd className="whitespace-pre-wrap text-muted">{state.values.reason.trim() === "" ? text.noReason : state.values.reason}</dd>
      </dl>
      <div className="flex flex-col gap-3 sm:flex-row">
        <form action={formAction}>
          <Hidden operationId={flow.operationId} values={state.values} intent="confirm" expectedTotal={state.computed.totalToRefundCents} />
          <SubmitButton pendingLabel={text.confirming}>{text.confirm}</SubmitButton>
        </form>
        <form action={formAction}>
          <Hidden operationId={flow.operationId} values={state.values} intent="edit" />
          <SubmitButton pendingLabel={text.sending} variant="secondary">
            {text.change}
          </SubmitButton>
        </form>
      </div>
    </StepSection>
  );
}

/** The values entered, sent again with either choice. */
function Hidden({
  operationId,
  values,
  intent,
  expectedTotal,
}: {
  operationId: string;
  values: RefundValues;
  intent: string;
  expectedTotal?: number;
}) {
  return <HiddenFields fields={{ operationId, intent, ...values, ...(expectedTotal === undefined ? {} : { expectedTotal }) }} />;
}
