"use client";

import { useActionState, useEffect, useRef, type MouseEvent, type ReactNode } from "react";
import type { CustomerDraft, CustomerErrorCode, CustomerField, DocumentType } from "@/lib/checkout/customer";
import { customerErrorMessage } from "@/lib/i18n/customer-errors";
import type { FormMessages } from "@/lib/i18n/messages";
import { INITIAL_CUSTOMER_FORM_STATE, type CustomerFormState } from "./customer-form-state";
import { fieldId, RadioGroupField, SelectField, TextField } from "./form-fields";
import { SubmitButton } from "./submit-button";

/*
 * The customer's data. A client component only for useActionState: the server action validates
 * and answers with each field's error code. The permalink makes a post without JavaScript land on
 * this same page, rendered with the action's state, so errors show there too.
 *
 * Value imports from lib/checkout are avoided on purpose (they pull zod and every country name
 * into the browser); only types come from there.
 */

const DOCUMENT_TYPE_OPTIONS: readonly DocumentType[] = ["DNI", "NIE", "PASSPORT"];
const GENDERS = ["FEMALE", "MALE"] as const;

/** The fields in the order the form shows them: the error summary lists errors in this order. */
const FIELD_ORDER: readonly CustomerField[] = [
  "firstName",
  "lastName",
  "birthDate",
  "gender",
  "nationality",
  "email",
  "prefix",
  "phone",
  "documentType",
  "documentId",
  "documentValidityDate",
  "address",
  "city",
  "postalCode",
  "countryCode",
];

/** Where an error summary link leads: the control itself (the first radio for a radio group). */
function anchorOf(field: CustomerField): string {
  return field === "gender" ? fieldId(`gender-${GENDERS[0]}`) : fieldId(field);
}

export interface CustomerFormProps {
  action: (state: CustomerFormState, formData: FormData) => Promise<CustomerFormState>;
  sessionId: string;
  /** This page's URL: where a post without JavaScript goes and re-renders with the errors. */
  permalink: string;
  /** What is known already: the partner's prefill or the customer's last submit. */
  prefill: CustomerDraft;
  /** The document type preselected (guessed from the document number). */
  documentType: DocumentType;
  countries: readonly { code: string; name: string }[];
  text: FormMessages;
  /** yyyy-MM-dd: bounds for the date pickers (the server still checks). */
  today: string;
  statusHref: string;
  /** Sent with the form (the embedded mode, so the action knows where to lead). */
  hiddenFields?: Record<string, string>;
  /** Shown between the error summary and the fields (the booking summary). */
  children?: ReactNode;
}

export function CustomerForm({
  action,
  sessionId,
  permalink,
  prefill,
  documentType,
  countries,
  text,
  today,
  statusHref,
  hiddenFields = {},
  children,
}: CustomerFormProps) {
  const [state, formAction] = useActionState(action, INITIAL_CUSTOMER_FORM_STATE, permalink);
  const summaryRef = useRef<HTMLDivElement>(null);

  const values: CustomerDraft = state.draft ?? prefill;
  const errors = state.errors ?? {};
  const messageOf = (field: CustomerField): string | undefined => {
    const code: CustomerErrorCode | undefined = errors[field];
    return code ? customerErrorMessage(text.errors, field, code) : undefined;
  };
  const listed = FIELD_ORDER.flatMap((field) => {
    const message = messageOf(field);
    return message ? [{ field, message }] : [];
  });
  const hasProblem = listed.length > 0 || state.failure !== undefined;

  // After a failed submit, focus goes to the summary so it is read first (without JavaScript,
  // the server-rendered summary carries autofocus instead).
  useEffect(() => {
    if (state.submission > 0 && hasProblem) summaryRef.current?.focus();
  }, [state, hasProblem]);

  const focusField = (event: MouseEvent<HTMLAnchorElement>, field: CustomerField) => {
    const control = document.getElementById(anchorOf(field));
    if (!control) return;
    event.preventDefault();
    // The label (above the control) stays in view, then the control gets focus.
    const label = control.closest("div, fieldset");
    label?.scrollIntoView({ block: "start" });
    control.focus({ preventScroll: true });
  };

  const countryOptions = countries.map((country) => ({ value: country.code, label: country.name }));
  const selectedType = DOCUMENT_TYPE_OPTIONS.find((type) => type === values.documentType?.toUpperCase()) ?? documentType;
  const common = { errorPrefix: text.errorPrefix };

  return (
    <form action={formAction} noValidate className="flex flex-col gap-6">
      <input type="hidden" name="sessionId" value={sessionId} />
      {Object.entries(hiddenFields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}

      {hasProblem ? (
        <div
          ref={summaryRef}
          tabIndex={-1}
          // Without JavaScript the page is new after a submit: autofocus brings the reader here.
          autoFocus
          // A group may carry a label (a bare div may not): screen readers announce the summary's title.
          role="group"
          aria-labelledby="error-summary-title"
          className="rounded-card border-4 border-danger bg-surface p-4"
        >
          <h2 id="error-summary-title" className="text-lg font-bold">
            {text.summaryTitle}
          </h2>
          {state.failure ? (
            <p className="mt-2">
              {text.failures[state.failure]}
              {state.failure === "closed" ? (
                <>
                  {" "}
                  <a href={statusHref} className="font-semibold text-brand underline">
                    {text.failures.closedLink}
                  </a>
                </>
              ) : null}
            </p>
          ) : null}
          {listed.length > 0 ? (
            <ul className="mt-2 list-disc space-y-1 pl-5">
              {listed.map(({ field, message }) => (
                <li key={field}>
                  <a
                    href={`#${anchorOf(field)}`}
                    onClick={(event) => focusField(event, field)}
                    className="font-semibold text-danger underline underline-offset-2"
                  >
                    {message}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}

      {children}

      {/* Remounted after each submit so every control (selects too) shows what was sent. */}
      <div key={state.submission} className="flex flex-col gap-6">
        <fieldset className="flex flex-col gap-4 rounded-card bg-surface p-4 shadow-sm sm:p-5">
          <legend className="float-left mb-1 w-full text-lg font-bold">{text.legends.personal}</legend>
          <TextField
            name="firstName"
            label={text.labels.firstName}
            defaultValue={values.firstName}
            error={messageOf("firstName")}
            autoComplete="given-name"
            autoCapitalize="words"
            maxLength={100}
            {...common}
          />
          <TextField
            name="lastName"
            label={text.labels.lastName}
            defaultValue={values.lastName}
            error={messageOf("lastName")}
            autoComplete="family-name"
            autoCapitalize="words"
            maxLength={100}
            {...common}
          />
          <TextField
            name="birthDate"
            type="date"
            label={text.labels.birthDate}
            hint={text.hints.birthDate}
            defaultValue={values.birthDate}
            error={messageOf("birthDate")}
            autoComplete="bday"
            max={today}
            className="sm:max-w-56"
            {...common}
          />
          <RadioGroupField
            name="gender"
            legend={text.labels.gender}
            defaultValue={values.gender?.toUpperCase()}
            error={messageOf("gender")}
            options={GENDERS.map((value) => ({ value, label: text.genders[value] }))}
            {...common}
          />
          <SelectField
            name="nationality"
            label={text.labels.nationality}
            defaultValue={values.nationality?.toUpperCase()}
            error={messageOf("nationality")}
            options={countryOptions}
            placeholder={text.chooseCountry}
            {...common}
          />
        </fieldset>

        <fieldset className="flex flex-col gap-4 rounded-card bg-surface p-4 shadow-sm sm:p-5">
          <legend className="float-left mb-1 w-full text-lg font-bold">{text.legends.contact}</legend>
          <TextField
            name="email"
            type="email"
            label={text.labels.email}
            defaultValue={values.email}
            error={messageOf("email")}
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={254}
            {...common}
          />
          {/* Side by side where there is room; stacked on a phone, where errors need the width. */}
          <div className="flex flex-col gap-4 sm:grid sm:grid-cols-[8rem_minmax(0,1fr)] sm:items-start sm:gap-3">
            <TextField
              name="prefix"
              type="tel"
              label={text.labels.prefix}
              hint={text.hints.prefix}
              defaultValue={values.prefix ?? "+34"}
              error={messageOf("prefix")}
              autoComplete="tel-country-code"
              inputMode="tel"
              maxLength={5}
              className="max-w-32 sm:max-w-none"
              {...common}
            />
            <TextField
              name="phone"
              type="tel"
              label={text.labels.phone}
              hint={text.hints.phone}
              defaultValue={values.phone}
              error={messageOf("phone")}
              autoComplete="tel-national"
              inputMode="tel"
              maxLength={20}
              {...common}
            />
          </div>
        </fieldset>

        <fieldset className="flex flex-col gap-4 rounded-card bg-surface p-4 shadow-sm sm:p-5">
          <legend className="float-left mb-1 w-full text-lg font-bold">{text.legends.document}</legend>
          <SelectField
            name="documentType"
            label={text.labels.documentType}
            defaultValue={selectedType}
            error={messageOf("documentType")}
            options={DOCUMENT_TYPE_OPTIONS.map((value) => ({ value, label: text.documentTypes[value] }))}
            {...common}
          />
          <TextField
            name="documentId"
            label={text.labels.documentId}
            hint={text.hints.documentId}
            defaultValue={values.documentId}
            error={messageOf("documentId")}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={20}
            {...common}
          />
          <TextField
            name="documentValidityDate"
            type="date"
            label={text.labels.documentValidityDate}
            defaultValue={values.documentValidityDate}
            error={messageOf("documentValidityDate")}
            autoComplete="off"
            min={today}
            className="sm:max-w-56"
            {...common}
          />
        </fieldset>

        <fieldset className="flex flex-col gap-4 rounded-card bg-surface p-4 shadow-sm sm:p-5">
          <legend className="float-left mb-1 w-full text-lg font-bold">{text.legends.address}</legend>
          <TextField
            name="address"
            label={text.labels.address}
            defaultValue={values.address}
            error={messageOf("address")}
            autoComplete="street-address"
            maxLength={200}
            {...common}
          />
          <TextField
            name="city"
            label={text.labels.city}
            defaultValue={values.city}
            error={messageOf("city")}
            autoComplete="address-level2"
            maxLength={100}
            {...common}
          />
          <TextField
            name="postalCode"
            label={text.labels.postalCode}
            defaultValue={values.postalCode}
            error={messageOf("postalCode")}
            autoComplete="postal-code"
            autoCapitalize="characters"
            maxLength={10}
            className="sm:max-w-40"
            {...common}
          />
          <SelectField
            name="countryCode"
            label={text.labels.countryCode}
            defaultValue={values.countryCode?.toUpperCase() ?? "ESP"}
            error={messageOf("countryCode")}
            options={countryOptions}
            placeholder={text.chooseCountry}
            autoComplete="country"
            {...common}
          />
        </fieldset>
      </div>

      <p className="text-sm text-muted">{text.privacy}</p>
      <div>
        <SubmitButton pendingLabel={text.submitting}>{text.submit}</SubmitButton>
      </div>
    </form>
  );
}
