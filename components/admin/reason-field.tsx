"use client";

import { useState } from "react";
import { fill } from "@/lib/backoffice/template";
import type { CounterMessages } from "@/lib/i18n/admin-messages";
import { useHydrated } from "./use-hydrated";

/**
 * A reason for a cancel or a refund, with its characters counted as they are typed (with
 * JavaScript; without, the hint states the limit). There is no hard maxlength: a pasted text can
 * be trimmed in place, and the server checks the limit anyway.
 */
export function ReasonField({
  id,
  label,
  hint,
  counter,
  max,
  defaultValue,
  error,
  errorPrefix,
}: {
  id: string;
  label: string;
  hint: string;
  counter: CounterMessages;
  max: number;
  defaultValue?: string;
  error?: string;
  errorPrefix: string;
}) {
  const [value, setValue] = useState(defaultValue ?? "");
  const hydrated = useHydrated();
  const count = value.length;
  const over = count - max;
  const describedBy = [`${id}-hint`, error ? `${id}-error` : undefined, hydrated ? `${id}-count` : undefined].filter(Boolean).join(" ");

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
      <textarea
        id={id}
        name="reason"
        rows={3}
        value={value}
        onChange={(event) => setValue(event.target.value)}
        aria-invalid={error || over > 0 ? true : undefined}
        aria-describedby={describedBy}
        className="block w-full rounded-md border-2 border-line bg-surface px-3 py-2 text-base text-ink aria-invalid:border-danger"
      />
      {hydrated ? (
        <p id={`${id}-count`} className={`text-sm ${over > 0 ? "font-semibold text-danger" : "text-muted"}`}>
          <span aria-hidden="true">{fill(counter.count, { count, max })}</span>
          <span className="sr-only">{fill(counter.described, { count, max })}</span>
          {over > 0 ? <span>{` · ${fill(counter.over, { over })}`}</span> : null}
        </p>
      ) : null}
    </div>
  );
}
