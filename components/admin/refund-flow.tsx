"use client";

import { useActionState } from "react";
import { useFocusAfterSubmit } from "@/components/ui/use-focus-after-submit";
import type { RefundBase } from "@/lib/backoffice/refunds/review";
import type { RefundState } from "./form-states";
import { ConfirmStep } from "./refund/confirm-step";
import { DoneStep } from "./refund/done-step";
import { EditStep } from "./refund/edit-step";
import { FailedStep } from "./refund/failed-step";
import type { RefundFlowContext } from "./refund/step";

/*
 * The refund, in steps, each the server's answer to the last: edit the charges (the total to
 * refund recomputed in the browser as they are typed, only as a preview), review the server's own
 * computation from a fresh `refund/details`, confirm, and see the outcome. Without JavaScript every
 * step is the page rendered again with the action's state (the permalink).
 */

export interface RefundFlowProps extends RefundFlowContext {
  action: (state: RefundState, formData: FormData) => Promise<RefundState>;
  permalink: string;
  /** The breakdown the page read from the API; undefined when it could not (see `initial`). */
  base: RefundBase | undefined;
  /**
   * What to show before anything is posted: the charges to edit, or why there is no refund to
   * prepare. Always this component, whatever the page found, so a post without JavaScript finds it
   * again and renders the action's answer (even once the operation is no longer refundable).
   */
  initial: RefundState;
}

export function RefundFlow({ action, permalink, base, initial, ...flow }: RefundFlowProps) {
  const [state, formAction] = useActionState(action, initial, permalink);
  // A new step read first: focus goes to its heading (without JavaScript, autofocus does it).
  const headingRef = useFocusAfterSubmit<HTMLHeadingElement>(state.submission);

  switch (state.step) {
    case "edit": {
      const stepBase = state.base ?? base;
      if (!stepBase) {
        return (
          <FailedStep
            flow={flow}
            state={{ step: "failed", reason: "not_refundable", status: null, submission: state.submission }}
            headingRef={headingRef}
          />
        );
      }
      return <EditStep key={state.submission} flow={flow} state={state} base={stepBase} formAction={formAction} headingRef={headingRef} />;
    }
    case "confirm":
      return <ConfirmStep flow={flow} state={state} formAction={formAction} headingRef={headingRef} />;
    case "done":
      return <DoneStep flow={flow} state={state} headingRef={headingRef} />;
    default:
      return <FailedStep flow={flow} state={state} headingRef={headingRef} />;
  }
}
