import type { ReactNode } from "react";

/**
 * The customer form's building blocks: a label above the control, then the hint and the error,
 * both tied to the control with aria-describedby; aria-invalid on a control with an error.
 */

export function fieldId(name: string): string {
  return `field-${name}`;
}

function describedBy(name: string, hint: string | undefined, error: string | undefined): string | undefined {
  const ids = [hint ? `${fieldId(name)}-hint` : undefined, error ? `${fieldId(name)}-error` : undefined].filter(Boolean);
  return ids.length > 0 ? ids.join(" ") : undefined;
}

const CONTROL =
  "block min-h-11 w-full rounded-md border-2 border-line bg-surface px-3 py-2 text-base text-ink aria-invalid:border-danger";

function Hint({ name, hint }: { name: string; hint?: string }) {
  return hint ? (
    <p id={`${fieldId(name)}-hint`} className="text-sm text-muted">
      {hint}
    </p>
  ) : null;
}

function ErrorText({ name, error, prefix }: { name: string; error?: string; prefix: string }) {
  return error ? (
    <p id={`${fieldId(name)}-error`} className="font-semibold text-danger">
      <span className="sr-only">{prefix} </span>
      {error}
    </p>
  ) : null;
}

function FieldShell({
  name,
  label,
  hint,
  error,
  errorPrefix,
  children,
}: {
  name: string;
  label: string;
  hint?: string;
  error?: string;
  errorPrefix: string;
  children: ReactNode;
}) {
  return (
    <div className={`flex flex-col gap-1 ${error ? "border-l-4 border-danger pl-3" : ""}`}>
      <label htmlFor={fieldId(name)} className="font-semibold">
        {label}
      </label>
      <Hint name={name} hint={hint} />
      <ErrorText name={name} error={error} prefix={errorPrefix} />
      {children}
    </div>
  );
}

export interface TextFieldProps {
  name: string;
  label: string;
  defaultValue?: string;
  hint?: string;
  error?: string;
  errorPrefix: string;
  type?: "text" | "email" | "tel" | "date";
  autoComplete?: string;
  inputMode?: "text" | "email" | "tel" | "numeric";
  autoCapitalize?: "none" | "characters" | "words";
  spellCheck?: boolean;
  min?: string;
  max?: string;
  maxLength?: number;
  className?: string;
}

export function TextField({ name, label, hint, error, errorPrefix, defaultValue, className, type = "text", ...input }: TextFieldProps) {
  return (
    <FieldShell name={name} label={label} hint={hint} error={error} errorPrefix={errorPrefix}>
      <input
        id={fieldId(name)}
        name={name}
        type={type}
        defaultValue={defaultValue ?? ""}
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(name, hint, error)}
        className={`${CONTROL} ${className ?? ""}`}
        {...input}
      />
    </FieldShell>
  );
}

export function SelectField({
  name,
  label,
  hint,
  error,
  errorPrefix,
  defaultValue,
  options,
  placeholder,
  autoComplete,
}: {
  name: string;
  label: string;
  hint?: string;
  error?: string;
  errorPrefix: string;
  defaultValue?: string;
  options: readonly { value: string; label: string }[];
  /** An empty first option ("Choose a country"), for a select with no answer yet. */
  placeholder?: string;
  autoComplete?: string;
}) {
  return (
    <FieldShell name={name} label={label} hint={hint} error={error} errorPrefix={errorPrefix}>
      <select
        id={fieldId(name)}
        name={name}
        defaultValue={defaultValue ?? ""}
        required
        autoComplete={autoComplete}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(name, hint, error)}
        className={CONTROL}
      >
        {placeholder ? <option value="">{placeholder}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldShell>
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
  options: readonly { value: string; label: string }[];
}) {
  return (
    <fieldset
      role="radiogroup"
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy(name, undefined, error)}
      className={`flex flex-col gap-1 ${error ? "border-l-4 border-danger pl-3" : ""}`}
    >
      <legend className="float-left mb-1 w-full font-semibold">{legend}</legend>
      <ErrorText name={name} error={error} prefix={errorPrefix} />
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
