"use client";

import Link from "next/link";
import { useActionState, useEffect, useRef, useState } from "react";
import { Notice } from "@/components/checkout/notice";
import { SubmitButton } from "@/components/checkout/submit-button";
import { reviewRefund, type RefundBase, type RefundValues } from "@/lib/backoffice/refund";
import { fill } from "@/lib/backoffice/template";
import { formatMoney } from "@/lib/financing/money";
import type { CounterMessages, RefundFormMessages } from "@/lib/i18n/admin-messages";
import type { RefundComputation, RefundErrors, RefundState } from "./form-states";
import { ReasonField } from "./reason-field";

/*
 * The refund, in steps, each the server's answer to the last: edit the charges (the total to
 * refund recomputed in the browser as they are typed, only as a preview), review the server's own
 * computation from a fresh `refund/details`, confirm, and see the outcome. Without JavaScript every
 * step is the page rendered again with the action's state (the permalink).
 */

const CONTROL =
  "block min-h-11 w-full rounded-md border-2 border-line bg-surface px-3 py-2 text-base text-ink aria-invalid:border-danger sm:max-w-56";

export interface RefundFlowProps {
  action: (state: RefundState, formData: FormData) => Promise<RefundState>;
  permalink: string;
  operationId: string;
  /** The breakdown the page read from the API; undefined when it could not (see `initial`). */
  base: RefundBase | undefined;
  /**
   * What to show before anything is posted: the charges to edit, or why there is no refund to
   * prepare. Always this component, whatever the page found, so a post without JavaScript finds it
   * again and renders the action's answer (even once the operation is no longer refundable).
   */
  initial: RefundState;
  text: RefundFormMessages;
  counter: CounterMessages;
  reasonLabel: string;
  reasonHint: string;
  reasonMax: number;
  /** Status codes in words. */
  statuses: Record<string, string>;
  intlLocale: string;
  backHref: string;
}

export function RefundFlow(props: RefundFlowProps) {
  const [state, formAction] = useActionState(props.action, props.initial, props.permalink);
  const headingRef = useRef<HTMLHeadingElement>(null);

  // A new step read first: focus goes to its heading (without JavaScript, autofocus does it).
  useEffect(() => {
    if (state.submission > 0) headingRef.current?.focus();
  }, [state.submission]);

  switch (state.step) {
    case "edit": {
      const base = state.base ?? props.base;
      if (!base) {
        return <FailedStep flow={props} state={{ step: "failed", reason: "not_refundable", status: null, submission: state.submission }} headingRef={headingRef} />;
      }
      return <EditStep key={state.submission} flow={props} state={state} base={base} formAction={formAction} headingRef={headingRef} />;
    }
    case "confirm":
      return <ConfirmStep flow={props} state={state} formAction={formAction} headingRef={headingRef} />;
    case "done":
      return <DoneStep flow={props} state={state} headingRef={headingRef} />;
    default:
      return <FailedStep flow={props} state={state} headingRef={headingRef} />;
  }
}

/** A step's inputs: the flow's props apart from the heading's ref (the linter treats any object holding a ref as one). */
interface StepProps<S extends RefundState["step"]> {
  flow: RefundFlowProps;
  state: Extract<RefundState, { step: S }>;
  headingRef: React.RefObject<HTMLHeadingElement | null>;
}

function moneyFormatter(props: RefundFlowProps, base: RefundBase) {
  return (cents: number) => formatMoney({ cents, currency: base.currency }, props.intlLocale);
}

/** The API's breakdown, and optionally the charges and the total after them, as a table. */
function BreakdownTable({
  base,
  computed,
  text,
  money,
  caption,
  intlLocale,
}: {
  base: RefundBase;
  computed?: RefundComputation;
  text: RefundFormMessages;
  money: (cents: number) => string;
  caption: string;
  intlLocale: string;
}) {
  const percentage = new Intl.NumberFormat(intlLocale, { style: "percent", maximumFractionDigits: 2 }).format(base.cancellationFeePercentage / 100);
  const rows: [string, string, boolean][] = [
    [text.totalReserve, money(base.totalReserveCents), false],
    [text.managementFees, money(-base.managementFeesCents), false],
    [fill(text.cancellationFee, { percentage }), money(-base.cancellationFeeCents), false],
    [text.apiTotal, money(base.totalToRefundCents), !computed],
  ];
  if (computed) {
    rows.push([text.agencyFee, money(-computed.agencyFeeCents), false]);
    rows.push([text.providerFee, money(-computed.providerFeeCents), false]);
    rows.push([text.total, money(computed.totalToRefundCents), true]);
  }
  return (
    <table className="w-full border-collapse text-left">
      <caption className="sr-only">{caption}</caption>
      <tbody>
        {rows.map(([label, value, strong]) => (
          <tr key={label} className={strong ? "border-t-2 border-ink" : "border-t border-divider"}>
            <th scope="row" className={`py-2 pr-4 ${strong ? "font-bold" : "font-normal"}`}>
              {label}
            </th>
            <td className={`py-2 text-right tabular-nums ${strong ? "text-lg font-bold" : ""}`}>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Hidden({ operationId, values, intent, expectedTotal }: { operationId: string; values: RefundValues; intent: string; expectedTotal?: number }) {
  return (
    <>
      <input type="hidden" name="operationId" value={operationId} />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="agencyFee" value={values.agencyFee} />
      <input type="hidden" name="providerFee" value={values.providerFee} />
      <input type="hidden" name="reason" value={values.reason} />
      {expectedTotal === undefined ? null : <input type="hidden" name="expectedTotal" value={expectedTotal} />}
    </>
  );
}

function EditStep({ flow, state, base, headingRef, formAction }: StepProps<"edit"> & { base: RefundBase; formAction: (formData: FormData) => void }) {
  const { text } = flow;
  const money = moneyFormatter(flow, base);
  const [agencyFee, setAgencyFee] = useState(state.values?.agencyFee ?? "");
  const [providerFee, setProviderFee] = useState(state.values?.providerFee ?? "");
  const errors: RefundErrors = state.errors ?? {};
  // Only a preview: the server recomputes from a fresh breakdown when the form is sent.
  const preview = reviewRefund(base, { agencyFee, providerFee, reason: "" });
  const errorText = (field: keyof RefundErrors) => {
    const code = errors[field];
    return code === "amount" ? text.amountInvalid : code === "exceeds" ? text.exceeds : code === "too_long" ? text.reasonTooLong : undefined;
  };
  const hasErrors = Object.keys(errors).length > 0;

  return (
    <section aria-labelledby="refund-step-heading" className="flex flex-col gap-5 rounded-card bg-surface p-4 shadow-sm sm:p-5">
      <h2 id="refund-step-heading" ref={headingRef} tabIndex={-1} autoFocus={state.submission > 0} className="text-xl font-semibold">
        {text.breakdownHeading}
      </h2>
      <BreakdownTable base={base} text={text} money={money} caption={text.breakdownHeading} intlLocale={flow.intlLocale} />
      <form action={formAction} noValidate className="flex flex-col gap-4">
        <input type="hidden" name="operationId" value={flow.operationId} />
        <input type="hidden" name="intent" value="review" />
        {hasErrors ? (
          <Notice tone="error" live title={text.summaryTitle}>
            <ul className="list-disc pl-5">
              {(["agencyFee", "providerFee", "reason"] as const).map((field) =>
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
        <FeeField id="refund-agencyFee" name="agencyFee" label={text.agencyFee} hint={text.feeHint} value={agencyFee} onChange={setAgencyFee} error={errorText("agencyFee")} errorPrefix={text.errorPrefix} />
        <FeeField id="refund-providerFee" name="providerFee" label={text.providerFee} hint={text.feeHint} value={providerFee} onChange={setProviderFee} error={errorText("providerFee")} errorPrefix={text.errorPrefix} />
        <p className="rounded-md bg-canvas px-3 py-2">
          <output htmlFor="refund-agencyFee refund-providerFee" aria-live="polite" className="font-semibold">
            {preview.totalToRefundCents === undefined
              ? fill(text.liveTotal, { total: "—" })
              : fill(text.liveTotal, { total: money(preview.totalToRefundCents) })}
          </output>
          {preview.totalToRefundCents !== undefined && preview.totalToRefundCents < 0 ? (
            <span className="mt-1 block font-semibold text-danger">{text.exceeds}</span>
          ) : null}
        </p>
        <ReasonField
          id="refund-reason"
          label={flow.reasonLabel}
          hint={flow.reasonHint}
          counter={flow.counter}
          max={flow.reasonMax}
          defaultValue={state.values?.reason}
          error={errorText("reason")}
          errorPrefix={text.errorPrefix}
        />
        <div>
          <SubmitButton pendingLabel={text.sending}>{text.review}</SubmitButton>
        </div>
      </form>
    </section>
  );
}

function FeeField({
  id,
  name,
  label,
  hint,
  value,
  onChange,
  error,
  errorPrefix,
}: {
  id: string;
  name: string;
  label: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  errorPrefix: string;
}) {
  return (
    <div className={`flex flex-col gap-1 ${error ? "border-l-4 border-danger pl-3" : ""}`}>
      <label htmlFor={id} className="font-semibold">
        {label}
      </label>
      <p id={`${id}-hint`} className="text-sm text-muted">
        {hint}
      </p>
      {error ? (
        <p id={`${id}-error`} className="font-semibold text-danger">
          <span className="sr-only">{errorPrefix} </span>
          {error}
        </p>
      ) : null}
      <input
        id={id}
        name={name}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
        className={CONTROL}
      />
    </div>
  );
}

function ConfirmStep({ flow, state, headingRef, formAction }: StepProps<"confirm"> & { formAction: (formData: FormData) => void }) {
  const { text } = flow;
  const money = moneyFormatter(flow, state.base);
  return (
    <section aria-labelledby="refund-step-heading" className="flex flex-col gap-4 rounded-card bg-surface p-4 shadow-sm sm:p-5">
      <h2 id="refund-step-heading" ref={headingRef} tabIndex={-1} autoFocus className="text-xl font-semibold">
        {text.confirmHeading}
      </h2>
      {state.changed ? (
        <Notice tone="warning" live>
          {text.changed}
        </Notice>
      ) : null}
      <p>{text.confirmIntro}</p>
      <BreakdownTable base={state.base} computed={state.computed} text={text} money={money} caption={text.confirmHeading} intlLocale={flow.intlLocale} />
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
    </section>
  );
}

function statusText(props: RefundFlowProps, status: string | null): string {
  if (!status) return props.text.unknownStatus;
  const label = props.statuses[status];
  return label ? `${label} (${status})` : status;
}

function DoneStep({ flow, state, headingRef }: StepProps<"done">) {
  const { text } = flow;
  const money = moneyFormatter(flow, state.base);
  return (
    <section aria-labelledby="refund-step-heading" className="flex flex-col gap-4 rounded-card bg-surface p-4 shadow-sm sm:p-5">
      <h2 id="refund-step-heading" ref={headingRef} tabIndex={-1} autoFocus className="text-xl font-semibold">
        {text.doneTitle}
      </h2>
      <Notice tone="success">
        {fill(text.doneBody, { total: money(state.computed.totalToRefundCents), status: statusText(flow, state.status) })}
      </Notice>
      <BreakdownTable base={state.base} computed={state.computed} text={text} money={money} caption={text.doneTitle} intlLocale={flow.intlLocale} />
      <p>
        <Link href={flow.backHref} className="font-semibold text-brand underline underline-offset-4">
          {text.backToOperation}
        </Link>
      </p>
    </section>
  );
}

function FailedStep({ flow, state, headingRef }: StepProps<"rejected" | "failed">) {
  const { text } = flow;
  const status = statusText(flow, state.status);
  let title: string;
  let body: string;
  // Before any post (submission 0), the page's own finding; after one, the action's answer.
  const first = state.submission === 0;
  if (state.step === "rejected") {
    title = text.rejectedTitle;
    body = fill(text.rejectedBody, { status });
  } else if (state.reason === "not_refundable") {
    title = first ? text.cannotTitle : text.notRefundableTitle;
    body = fill(first ? text.cannotBody : text.notRefundableBody, { status });
  } else if (state.reason === "not_found") {
    title = text.notFoundTitle;
    body = text.notFoundBody;
  } else if (state.reason === "validation") {
    title = text.validationTitle;
    body = text.validationBody;
  } else {
    title = first ? text.cannotLoadTitle : text.unavailableTitle;
    body = first ? text.cannotLoadBody : text.unavailable;
  }
  return (
    <section aria-labelledby="refund-step-heading" className="flex flex-col gap-4 rounded-card bg-surface p-4 shadow-sm sm:p-5">
      <h2 id="refund-step-heading" ref={headingRef} tabIndex={-1} autoFocus={!first} className="text-xl font-semibold">
        {title}
      </h2>
      <Notice tone={first ? "warning" : "error"}>{body}</Notice>
      <p>
        <Link href={flow.backHref} className="font-semibold text-brand underline underline-offset-4">
          {text.backToOperation}
        </Link>
      </p>
    </section>
  );
}
