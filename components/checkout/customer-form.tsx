"use client";

import { useActionState, useRef, type MouseEvent, type ReactNode } from "react";
import type { CustomerDraft, CustomerErrorCode, CustomerField, DocumentType } from "@/lib/checkout/session/customer";
import { CUSTOMER_FIELDS } from "@/lib/vocabulary/customer";
import { customerErrorMessage } from "@/lib/i18n/customer-errors";
import type { FormMessages } from "@/lib/i18n/messages";
import { countryOptionsHtml } from "@/lib/checkout/session/country-options";
import { INITIAL_CUSTOMER_FORM_STATE, type CustomerFormState } from "./customer-form-state";
import { ErrorSummary } from "@/components/ui/error-summary";
import { fieldId, RadioGroupField, SelectField, TextField } from "@/components/ui/field";
import { HiddenFields } from "@/components/ui/hidden-fields";
import { SubmitRow } from "@/components/ui/submit-button";
import { useFocusAfterSubmit } from "@/components/ui/use-focus-after-submit";
import { useFreshDetails } from "./details-freshness";
import { useKeptAcrossLanguageSwitch } from "./kept-across-language-switch";

/*
 * The customer's data. A client component only for useActionState: the server action validates
 * and answers with each field's error code. The permalink makes a post without JavaScript land on
 * this same page, rendered with the action's state, so errors show there too.
 *
 * Value imports from lib/checkout are avoided on purpose (they pull zod and every country name
 * into the browser); only types come from there, and lib/checkout/session/country-options.ts (no data).
 * The fields, in the order the form shows them and its error summary lists them, are the stored
 * draft's list (lib/vocabulary/customer.ts, which imports nothing).
 */

const DOCUMENT_TYPE_OPTIONS: readonly DocumentType[] = ["DNI", "NIE", "PASSPORT"];
const GENDERS = ["FEMALE", "MALE"] as const;

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
  /** Every country, in the compact form of lib/checkout/session/countries.ts (countryList). */
  countries: string;
  text: FormMessages;
  /** yyyy-MM-dd: bounds for the date pickers (the server still checks). */
  today: string;
  statusHref: string;
  /** Sent with the form (the embedded mode, so the action knows where to lead). */
  hiddenFields?: Record<string, string>;
  /** When the server rendered this form (ms), and the correction form's address: see details-freshness.tsx. */
  renderedAt: number;
  correctionHref: string;
  /**
   * The correction form: what was sent, masked, by field (lib/checkout/session/customer-editor.ts). Those
   * fields start blank and are typed again only to change them; "" says the value is hidden whole.
   */
  masks?: Partial<Record<CustomerField, string>>;
  /** Shown between the error summary and the fields (the booking summary). */
  children?: ReactNode;
  /** The answer to a post made without JavaScript, brought back by a redirect (the form's state to start from). */
  answer?: CustomerFormState;
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
  renderedAt,
  correctionHref,
  masks = {},
  children,
  answer,
}: CustomerFormProps) {
  const [state, formAction] = useActionState(action, answer ?? INITIAL_CUSTOMER_FORM_STATE, permalink);
  useFreshDetails(sessionId, renderedAt, correctionHref);
  const formRef = useRef<HTMLFormElement>(null);
  useKeptAcrossLanguageSwitch(formRef, sessionId);

  const values: CustomerDraft = state.draft ?? prefill;
  const errors = state.errors ?? {};
  const messageOf = (field: CustomerField): string | undefined => {
    const code: CustomerErrorCode | undefined = errors[field];
    return code ? customerErrorMessage(text.errors, field, code) : undefined;
  };
  // In the summary, away from its field, a message that does not name what it is about
  // ("This is too long") gets the field's label in front.
  const listed = CUSTOMER_FIELDS.flatMap((field) => {
    const message = messageOf(field);
    if (!message) return [];
    const generic = errors[field] === "too_long" || errors[field] === "characters";
    return [{ field, message: generic ? `${text.labels[field]}: ${message}` : message }];
  });
  const hasProblem = listed.length > 0 || state.failure !== undefined;

  // After a failed submit, focus goes to the summary so it is read first.
  const summaryRef = useFocusAfterSubmit<HTMLDivElement>(state.submission, hasProblem);

  const focusField = (event: MouseEvent<HTMLAnchorElement>, field: CustomerField) => {
    const control = document.getElementById(anchorOf(field));
    if (!control) return;
    event.preventDefault();
    // The label (above the control) stays in view, then the control gets focus.
    const label = control.closest("div, fieldset");
    label?.scrollIntoView({ block: "start" });
    control.focus({ preventScroll: true });
  };

  const countryOptions = countryOptionsHtml(countries, text.chooseCountry);
  const selectedType = DOCUMENT_TYPE_OPTIONS.find((type) => type === values.documentType?.toUpperCase()) ?? documentType;
  const hints: Partial<Record<CustomerField, string>> = text.hints;
  /** What every field takes from the form: its label, hint, value and error. */
  const field = (name: CustomerField) => {
    const mask = masks[name];
    const masked = mask !== undefined;
    return {
      name,
      label: text.labels[name],
      // A masked field says what is kept (never the value itself) and that blank keeps it.
      hint: masked ? keptHint(text, mask) : hints[name],
      defaultValue: masked ? (state.draft?.[name] ?? "") : (values[name] ?? ""),
      error: messageOf(name),
      errorPrefix: text.errorPrefix,
      required: !masked,
    };
  };

  return (
    <form ref={formRef} action={formAction} noValidate className="flex flex-col gap-6">
      <HiddenFields fields={{ sessionId, ...hiddenFields }} />

      {hasProblem ? (
        // A group may carry a label (a bare div may not): screen readers announce the summary's title.
        <ErrorSummary ref={summaryRef} titleId="error-summary-title" title={text.summaryTitle} role="group" focusable>
          {state.failure ? (
            <p className="mt-2">
              {text.failures[state.failure]}
              {state.failure === "closed" || state.failure === "too_many_corrections" || state.failure === "not_editor" ? (
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
        </ErrorSummary>
      ) : null}

      {children}

      {/* Remounted after each submit so every control (selects too) shows what was sent. */}
      <div key={state.submission} className="flex flex-col gap-6">
        <FieldGroup legend={text.legends.personal}>
          <TextField {...field("firstName")} autoComplete="given-name" autoCapitalize="words" maxLength={100} />
          <TextField {...field("lastName")} autoComplete="family-name" autoCapitalize="words" maxLength={100} />
          <TextField {...field("birthDate")} type="date" autoComplete="bday" max={today} controlClassName="sm:max-w-56" />
          <RadioGroupField
            name="gender"
            legend={text.labels.gender}
            defaultValue={values.gender?.toUpperCase()}
            error={messageOf("gender")}
            options={GENDERS.map((value) => ({ value, label: text.genders[value] }))}
            errorPrefix={text.errorPrefix}
          />
          <SelectField {...field("nationality")} defaultValue={values.nationality?.toUpperCase()} optionsHtml={countryOptions} />
        </FieldGroup>

        <FieldGroup legend={text.legends.contact}>
          <TextField {...field("email")} type="email" autoComplete="email" autoCapitalize="none" spellCheck={false} maxLength={254} />
          {/* Side by side where there is room; stacked on a phone, where errors need the width. The parts of a
              number are text controls with a phone keypad: HTML allows tel-country-code and tel-national on
              type=text, not on type=tel (which takes only the whole number, "tel"). */}
          <div className="flex flex-col gap-4 sm:grid sm:grid-cols-[8rem_minmax(0,1fr)] sm:items-start sm:gap-3">
            <TextField
              {...field("prefix")}
              defaultValue={values.prefix ?? "+34"}
              autoComplete="tel-country-code"
              inputMode="tel"
              maxLength={5}
              controlClassName="max-w-32 sm:max-w-none"
            />
            <TextField {...field("phone")} autoComplete="tel-national" inputMode="tel" maxLength={20} />
          </div>
        </FieldGroup>

        <FieldGroup legend={text.legends.document}>
          <SelectField
            {...field("documentType")}
            defaultValue={selectedType}
            options={DOCUMENT_TYPE_OPTIONS.map((value) => ({ value, label: text.documentTypes[value] }))}
          />
          <TextField {...field("documentId")} autoComplete="off" autoCapitalize="characters" spellCheck={false} maxLength={20} />
          <TextField {...field("documentValidityDate")} type="date" autoComplete="off" min={today} controlClassName="sm:max-w-56" />
        </FieldGroup>

        <FieldGroup legend={text.legends.address}>
          {/* One line: street-address is for a multi-line control (a textarea) in HTML's autofill rules. */}
          <TextField {...field("address")} autoComplete="address-line1" maxLength={200} />
          <TextField {...field("city")} autoComplete="address-level2" maxLength={100} />
          <TextField
            {...field("postalCode")}
            autoComplete="postal-code"
            autoCapitalize="characters"
            maxLength={10}
            controlClassName="sm:max-w-40"
          />
          <SelectField
            {...field("countryCode")}
            defaultValue={values.countryCode?.toUpperCase() ?? "ESP"}
            optionsHtml={countryOptions}
            autoComplete="country"
          />
        </FieldGroup>
      </div>

      <p className="text-sm text-muted">{text.privacy}</p>
      <SubmitRow pendingLabel={text.submitting}>{text.submit}</SubmitRow>
    </form>
  );
}

/** A masked field's hint: what was sent, masked, or that it is hidden; blank keeps it. */
function keptHint(text: Pick<FormMessages, "keptValue" | "keptHidden">, mask: string): string {
  return mask === "" ? text.keptHidden : text.keptValue.replace("{mask}", mask);
}

/** One part of the form (about you, contact, …), on its own surface. */
function FieldGroup({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="flex flex-col gap-4 rounded-card bg-surface p-4 shadow-sm sm:p-5">
      <legend className="float-left mb-1 w-full text-lg font-bold">{legend}</legend>
      {children}
    </fieldset>
  );
}
