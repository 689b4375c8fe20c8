"use client";

import { useActionState, type ComponentProps } from "react";
import { ErrorSummary } from "@/components/ui/error-summary";
import { fieldId, SelectField, TextField } from "@/components/ui/field";
import { SubmitRow } from "@/components/ui/submit-button";
import { useFocusAfterSubmit } from "@/components/ui/use-focus-after-submit";
import type { PaymentLinkForm, PaymentLinkFormField } from "@/lib/backoffice/payment-links/payment-link-form";
import { INITIAL_PAYMENT_LINK_FORM_STATE, type PaymentLinkFormState } from "@/lib/backoffice/payment-links/payment-link-state";
import type { PaymentLinkMessages } from "@/lib/i18n/payment-link-messages";

/** The strings of the form (functions cannot cross to a client component). */
export type PaymentLinkFormText = Omit<PaymentLinkMessages, "meta" | "fromQuote" | "fromSimulator" | "qrLabel" | "states"> & {
  errorPrefix: string;
  sending: string;
};

type Values = Partial<PaymentLinkForm>;

/**
 * "New payment link": the booking, at least one flight, hotel or service, and what staff know of
 * the customer. A client component only for useActionState: without JavaScript the post lands on
 * the page's own URL with the action's answer (values kept, errors listed and by their fields).
 */
export function PaymentLinkFormView({
  action,
  page,
  initial,
  text,
}: {
  action: (state: PaymentLinkFormState, formData: FormData) => Promise<PaymentLinkFormState>;
  page: string;
  initial: Values;
  text: PaymentLinkFormText;
}) {
  const [state, formAction] = useActionState(action, INITIAL_PAYMENT_LINK_FORM_STATE, page);
  const values: Values = state.values ?? initial;
  const problems = new Set(state.problems ?? []);
  const hasErrors = problems.size > 0 || state.error !== undefined;
  const summaryRef = useFocusAfterSubmit<HTMLDivElement>(state.submission, hasErrors);
  const errorOf = (name: PaymentLinkFormField) =>
    problems.has(name) ? (name === "bookingReference" && state.error === "conflict" ? text.conflict : text.fieldErrors[name]) : undefined;
  const text_ = (
    name: PaymentLinkFormField & keyof PaymentLinkFormText,
    extra: Partial<Omit<ComponentProps<typeof TextField>, "name" | "label">> = {},
  ) => (
    <TextField
      name={name}
      label={text[name] as string}
      defaultValue={(values[name] as string | undefined) ?? ""}
      error={errorOf(name)}
      errorPrefix={text.errorPrefix}
      {...extra}
    />
  );
  const fieldset = "flex flex-col gap-4 rounded-card bg-surface p-4 shadow-sm sm:p-5";
  const legend = "float-left mb-2 w-full text-xl font-semibold";

  return (
    // A new key per answer: the fields take the values the action sent back (defaultValue).
    <form key={state.submission} action={formAction} noValidate className="flex flex-col gap-6">
      {hasErrors ? (
        <ErrorSummary titleId="link-errors" title={text.errorsTitle} role="group" focusable ref={summaryRef}>
          <ul className="mt-2 list-disc pl-5">
            {state.error === "no_return_url" ? <li>{text.noReturnUrl}</li> : null}
            {[...problems].map((name) => (
              <li key={name}>
                <a className="font-semibold text-brand underline" href={`#${fieldId(name)}`}>
                  {errorOf(name)}
                </a>
              </li>
            ))}
          </ul>
        </ErrorSummary>
      ) : null}

      <fieldset className={fieldset}>
        <legend className={legend}>{text.bookingHeading}</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          {text_("bookingReference", { hint: text.bookingReferenceHint, autoComplete: "off", spellCheck: false, maxLength: 64 })}
          {text_("packageName", { autoComplete: "off" })}
          {text_("travellers", { inputMode: "numeric", autoComplete: "off" })}
          {text_("total", { hint: text.totalHint, inputMode: "decimal", autoComplete: "off" })}
        </div>
        <label className="flex min-h-11 items-center gap-3">
          <input
            type="checkbox"
            name="packageTravel"
            value="1"
            defaultChecked={values.packageTravel !== undefined || state.submission === 0}
            className="size-5"
          />
          {text.packageTravel}
        </label>
        <p className="text-muted">{text.itemsHint}</p>
      </fieldset>

      <fieldset className={fieldset}>
        <legend className={legend}>{text.flightHeading}</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          {text_("flightOrigin")}
          {text_("flightDestination")}
          {text_("flightDepartureDate", { type: "date" })}
          {text_("flightReturnDate", { type: "date" })}
        </div>
      </fieldset>

      <fieldset className={fieldset}>
        <legend className={legend}>{text.hotelHeading}</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          {text_("hotelName")}
          {text_("hotelCity")}
          {text_("hotelCheckInDate", { type: "date" })}
          {text_("hotelCheckOutDate", { type: "date" })}
        </div>
      </fieldset>

      <fieldset className={fieldset}>
        <legend className={legend}>{text.serviceHeading}</legend>
        {text_("serviceDescription")}
      </fieldset>

      <fieldset className={fieldset}>
        <legend className={legend}>{text.customerHeading}</legend>
        <p className="text-muted">{text.customerHint}</p>
        <div className="grid gap-4 sm:grid-cols-2">
          {text_("firstName", { autoComplete: "off" })}
          {text_("lastName", { autoComplete: "off" })}
          {text_("email", { type: "email", autoComplete: "off" })}
          {text_("phone", { type: "tel", autoComplete: "off" })}
        </div>
        <SelectField
          name="locale"
          label={text.locale}
          defaultValue={values.locale || "es"}
          error={errorOf("locale")}
          errorPrefix={text.errorPrefix}
          className="sm:w-72"
          options={Object.entries(text.locales).map(([value, label]) => ({ value, label }))}
        />
      </fieldset>

      <SubmitRow pendingLabel={text.sending}>{text.create}</SubmitRow>
    </form>
  );
}
