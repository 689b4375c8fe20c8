import { Notice } from "@/components/ui/notice";
import { fill } from "@/lib/text/template";
import type { RefundFormMessages } from "@/lib/i18n/admin-messages";
import type { RefundState } from "../form-states";
import { StepSection, statusText, type StepProps } from "./step";

type Failure = Extract<RefundState, { step: "rejected" | "failed" }>;

/**
 * Why there is no refund: before any post (submission 0), the page's own finding, as a warning;
 * after one, the action's answer, as an error.
 */
export function FailedStep({ flow, state, headingRef }: StepProps<"rejected" | "failed">) {
  const first = state.submission === 0;
  const { title, body } = failureText(flow.text, state, first, statusText(flow, state.status));
  return (
    <StepSection title={title} headingRef={headingRef} autoFocus={!first} backHref={flow.backHref} backLabel={flow.text.backToOperation}>
      <Notice tone={first ? "warning" : "error"}>{body}</Notice>
    </StepSection>
  );
}

function failureText(text: RefundFormMessages, state: Failure, first: boolean, status: string): { title: string; body: string } {
  if (state.step === "rejected") return { title: text.rejectedTitle, body: fill(text.rejectedBody, { status }) };
  switch (state.reason) {
    case "not_refundable":
      return {
        title: first ? text.cannotTitle : text.notRefundableTitle,
        body: fill(first ? text.cannotBody : text.notRefundableBody, { status }),
      };
    case "not_found":
      return { title: text.notFoundTitle, body: text.notFoundBody };
    case "validation":
      return { title: text.validationTitle, body: text.validationBody };
    case "in_progress":
      return { title: text.inProgressTitle, body: text.inProgressBody };
    default:
      return { title: first ? text.cannotLoadTitle : text.unavailableTitle, body: first ? text.cannotLoadBody : text.unavailable };
  }
}
