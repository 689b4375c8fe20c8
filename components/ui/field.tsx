import type { InputHTMLAttributes, ReactNode } from "react";
import { cx } from "./cx";

/*
 * Form fields: a label above the control, then the hint and the error, both tied to the control
 * with aria-describedby; aria-invalid on a control with an error, and a red edge on its field.
 * `Field` lays a field out and hands its control the attributes (id, aria-*, the one control
 * look); TextField, SelectField and RadioGroupField are the common controls in it, CheckboxField
 * the one beside its words.
 */

/** The look of every text input, select and textarea. `fit`: as wide as its content (a toolbar's select). */
export function controlClass({ fit = false, className }: { fit?: boolean; className?: string } = {}): string {
  return cx(
    "block min-h-11 rounded-md border-2 border-line bg-surface px-3 py-2 text-base text-ink aria-invalid:border-danger",
    !fit && "w-full",
    className,
  );
}

/** The id of a named field's control, where the caller gives none (`field-firstName`). */
export function fieldId(name: string): string {
  return `field-${name}`;
}

const hintId = (id: string) => `${id}-hint`;
const errorId = (id: string) => `${id}-error`;

/** What a field hands its control: spread it on the <input>, <select> or <textarea>. */
export interface ControlProps {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
  className: string;
}

export interface FieldFrame {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  /** Read before the error ("Error:"), for a screen reader. */
  errorPrefix?: string;
  /** aria-invalid with no error text of its own (an error said elsewhere, a count over its limit). */
  invalid?: boolean;
  /** More ids describing the control, after the hint and the error (a live character count). */
  describedBy?: string;
  /** On the field's wrapper (its width in a row of fields). */
  className?: string;
  /** Added to the control's look (a narrower date). */
  controlClassName?: string;
  /** A small label and a control as wide as its content (a toolbar's select). */
  compact?: boolean;
}

export function ErrorText({ id, error, prefix }: { id: string; error?: string; prefix?: string }) {
  return error ? (
    <p id={errorId(id)} className="font-semibold text-danger">
      <span className="sr-only">{prefix} </span>
      {error}
    </p>
  ) : null;
}

/** The red edge of a field (or group) with an error. */
function errorEdge(error: string | undefined): string | undefined {
  return error ? "border-l-4 border-danger pl-3" : undefined;
}

function describedBy(id: string, hint: string | undefined, error: string | undefined, more?: string): string | undefined {
  return cx(hint && hintId(id), error && errorId(id), more) || undefined;
}

export function Field({
  id,
  label,
  hint,
  error,
  errorPrefix,
  invalid,
  describedBy: more,
  className,
  controlClassName,
  compact = false,
  children,
}: FieldFrame & { children: (control: ControlProps) => ReactNode }) {
  const control: ControlProps = {
    id,
    "aria-invalid": error || invalid ? true : undefined,
    "aria-describedby": describedBy(id, hint, error, more),
    className: controlClass({ fit: compact, className: controlClassName }),
  };
  return (
    <div className={cx("flex flex-col gap-1", className, errorEdge(error))}>
      <label htmlFor={id} className={compact ? "text-sm font-semibold" : "font-semibold"}>
        {label}
      </label>
      {hint ? (
        <p id={hintId(id)} className="text-sm text-muted">
          {hint}
        </p>
      ) : null}
      <ErrorText id={id} error={error} prefix={errorPrefix} />
      {children(control)}
    </div>
  );
}

type FieldOf<Extra> = Omit<FieldFrame, "id"> & { name: string; id?: string } & Extra;

/** A text input (or e-mail, date, …): the input's own attributes pass through. */
export function TextField({
  name,
  id = fieldId(name),
  label,
  hint,
  error,
  errorPrefix,
  invalid,
  describedBy,
  className,
  controlClassName,
  type = "text",
  ...input
}: FieldOf<Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "name" | "className" | "children">>) {
  return (
    <Field {...{ id, label, hint, error, errorPrefix, invalid, describedBy, className, controlClassName }}>
      {(control) => <input {...control} name={name} type={type} {...input} />}
    </Field>
  );
}

type TextFieldProps = Parameters<typeof TextField>[0];

/** An e-mail address (`email` unless named): no capitals, no spell check, at most 254 characters (RFC 5321). */
export function EmailField({ name = "email", ...props }: Omit<TextFieldProps, "name" | "type"> & { name?: string }) {
  return <TextField name={name} type="email" autoCapitalize="none" spellCheck={false} maxLength={254} {...props} />;
}

/** A web address: the URL keyboard, no spell check, at most 2,000 characters. */
export function UrlField(props: Omit<TextFieldProps, "type">) {
  return <TextField type="url" inputMode="url" spellCheck={false} maxLength={2000} {...props} />;
}

export interface Option {
  value: string;
  label: string;
}

export function SelectField({
  name,
  id = fieldId(name),
  options,
  optionsHtml,
  placeholder,
  defaultValue,
  autoComplete,
  required,
  ...frame
}: FieldOf<{
  /** The options as elements; or */
  options?: readonly Option[];
  /**
   * the options as trusted HTML written once on the server (a long list, the same for every page:
   * lib/checkout/session/countries.ts), placeholder included, as `<option value=CODE>` (unquoted values).
   */
  optionsHtml?: string;
  /** An empty first option ("Choose a country"), for a select with no answer yet (with `options`). */
  placeholder?: string;
  defaultValue?: string;
  autoComplete?: string;
  required?: boolean;
}>) {
  const value = defaultValue ?? "";
  return (
    <Field id={id} {...frame}>
      {(control) =>
        optionsHtml !== undefined ? (
          <select
            {...control}
            name={name}
            defaultValue={value}
            required={required}
            autoComplete={autoComplete}
            // The server's HTML marks the chosen option itself (React marks only option elements).
            dangerouslySetInnerHTML={{ __html: withSelected(optionsHtml, value) }}
          />
        ) : (
          <select {...control} name={name} defaultValue={value} required={required} autoComplete={autoComplete}>
            {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
            {(options ?? []).map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        )
      }
    </Field>
  );
}

/**
 * `html` with the option of `value` marked selected. Only a value written in the list is found
 * (the search never puts the value into the HTML); none found: the browser shows the first option.
 */
export function withSelected(html: string, value: string): string {
  const tag = value === "" ? '<option value="">' : /^[\w-]+$/.test(value) ? `<option value=${value}>` : undefined;
  const at = tag ? html.indexOf(tag) : -1;
  if (!tag || at === -1) return html;
  const end = at + tag.length - 1;
  return `${html.slice(0, end)} selected=""${html.slice(end)}`;
}

/** A checkbox with its words beside it and, where given, what ticking it means below. */
export function CheckboxField({
  name,
  id,
  label,
  hint,
  ...input
}: { name: string; id: string; label: string; hint?: string } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  "id" | "name" | "type" | "className" | "children"
>) {
  const box = (
    <label className="flex min-h-11 items-center gap-3">
      <input
        type="checkbox"
        name={name}
        id={id}
        aria-describedby={hint ? hintId(id) : undefined}
        className="size-5 accent-brand"
        {...input}
      />
      <span className="font-semibold">{label}</span>
    </label>
  );
  return hint ? (
    <div className="flex flex-col gap-1">
      {box}
      <p id={hintId(id)} className="text-sm text-muted">
        {hint}
      </p>
    </div>
  ) : (
    box
  );
}

/** Radios in a fieldset (role radiogroup, so it can carry aria-invalid); the legend is the label. */
export function RadioGroupField({
  name,
  legend,
  error,
  errorPrefix,
  defaultValue,
  options,
}: {
  name: string;
  legend: string;
  error?: string;
  errorPrefix: string;
  defaultValue?: string;
  options: readonly Option[];
}) {
  const id = fieldId(name);
  return (
    <fieldset
      role="radiogroup"
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy(id, undefined, error)}
      className={cx("flex flex-col gap-1", errorEdge(error))}
    >
      <legend className="float-left mb-1 w-full font-semibold">{legend}</legend>
      <ErrorText id={id} error={error} prefix={errorPrefix} />
      <div className="flex flex-wrap gap-3">
        {options.map((option) => (
          <label
            key={option.value}
            className="flex min-h-11 cursor-pointer items-center gap-3 rounded-md border-2 border-line bg-surface px-4 has-checked:border-brand has-checked:bg-brand-soft"
          >
            <input
              id={fieldId(`${name}-${option.value}`)}
              type="radio"
              name={name}
              value={option.value}
              defaultChecked={defaultValue === option.value}
              className="size-5 accent-brand"
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
