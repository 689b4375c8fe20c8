import { Notice } from "@/components/ui/notice";
import { fill } from "@/lib/text/template";
import { BreakdownTable } from "./breakdown-table";
import { moneyFormatter, StepSection, statusText, type StepProps } from "./step";

/** The refund went through: how much, and the operation's status read after it. */
export function DoneStep({ flow, state, headingRef }: StepProps<"done">) {
  const { text } = flow;
  const money = moneyFormatter(flow, state.base);
  return (
    <StepSection title={text.doneTitle} headingRef={headingRef} autoFocus backHref={flow.backHref} backLabel={text.backToOperation}>
      <Notice tone="success">
        {fill(text.doneBody, { total: money(state.computed.totalToRefundCents), status: statusText(flow, state.status) })}
      </Notice>
      <BreakdownTable flow={flow} base={state.base} computed={state.computed} caption={text.doneTitle} />
    </StepSection>
  );
}
