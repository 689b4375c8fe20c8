import type { ReactNode, RefObject } from "react";
import { TextLink } from "@/components/ui/text-link";
import type { RefundBase } from "@/lib/backoffice/refunds/review";
import { formatMoney } from "@/lib/financing/money";
import type { RefundFormMessages } from "@/lib/i18n/admin-messages";
import type { ReasonSettings, RefundState } from "../form-states";
import { statusWords } from "../status-badge";

/** What every step of the refund needs from the page (RefundFlow's props, without the action). */
export interface RefundFlowContext {
  operationId: string;
  text: RefundFormMessages;
  reason: ReasonSettings;
  /** Status codes in words. */
  statuses: Record<string, string>;
  intlLocale: string;
  backHref: string;
}

/** A step's inputs: the flow's props apart from the heading's ref (the linter treats any object holding a ref as one). */
export interface StepProps<S extends RefundState["step"]> {
  flow: RefundFlowContext;
  state: Extract<RefundState, { step: S }>;
  headingRef: RefObject<HTMLHeadingElement | null>;
}

/** Posts a step's form to the refund action (useActionState's dispatcher). */
export type FormAction = (formData: FormData) => void;

export function moneyFormatter(flow: RefundFlowContext, base: RefundBase) {
  return (cents: number) => formatMoney({ cents, currency: base.currency }, flow.intlLocale);
}

/** A status in words with its code, as staff quote it to support. */
export function statusText(flow: RefundFlowContext, status: string | null): string {
  return status ? statusWords(flow.statuses, status) : flow.text.unknownStatus;
}

/**
 * One step on its surface, under a heading that takes the focus when the step is the action's
 * answer (`autoFocus` without JavaScript; the flow's ref with it); `backHref` ends it with the way
 * back to the operation.
 */
export function StepSection({
  title,
  headingRef,
  autoFocus,
  roomy = false,
  backHref,
  backLabel,
  children,
}: {
  title: string;
  headingRef: RefObject<HTMLHeadingElement | null>;
  autoFocus: boolean;
  /** More space between the parts (the form step). */
  roomy?: boolean;
  backHref?: string;
  backLabel?: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby="refund-step-heading"
      className={`flex flex-col ${roomy ? "gap-5" : "gap-4"} rounded-card bg-surface p-4 shadow-sm sm:p-5`}
    >
      <h2 id="refund-step-heading" ref={headingRef} tabIndex={-1} autoFocus={autoFocus} className="text-xl font-semibold">
        {title}
      </h2>
      {children}
      {backHref ? (
        <p>
          <TextLink href={backHref}>{backLabel}</TextLink>
        </p>
      ) : null}
    </section>
  );
}
