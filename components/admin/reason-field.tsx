"use client";

import { useCallback, useState } from "react";
import { Field } from "@/components/ui/field";
import { fill } from "@/lib/text/template";
import { useHydrated } from "@/components/ui/use-hydrated";
import type { ReasonSettings } from "./form-states";

/**
 * A reason for a cancel or a refund, with its characters counted as they are typed (with
 * JavaScript; without, the hint states the limit). There is no hard maxlength: a pasted text can
 * be trimmed in place, and the server checks the limit anyway.
 */
export function ReasonField({
  id,
  settings: { label, hint, counter, max },
  defaultValue,
  error,
  errorPrefix,
}: {
  id: string;
  settings: ReasonSettings;
  defaultValue?: string;
  error?: string;
  errorPrefix: string;
}) {
  const [value, setValue] = useState(defaultValue ?? "");
  // Text typed before the page's script ran (a slow phone) is in the field but not in the state:
  // taken from the field once it is ours, so that it is counted too.
  const takeTyped = useCallback((node: HTMLTextAreaElement | null) => {
    if (node?.value) setValue(node.value);
  }, []);
  const hydrated = useHydrated();
  const count = value.length;
  const over = count - max;

  return (
    <Field
      id={id}
      label={label}
      hint={hint}
      error={error}
      errorPrefix={errorPrefix}
      invalid={over > 0}
      describedBy={hydrated ? `${id}-count` : undefined}
    >
      {(control) => (
        <>
          <textarea {...control} ref={takeTyped} name="reason" rows={3} value={value} onChange={(event) => setValue(event.target.value)} />
          {hydrated ? (
            <p id={`${id}-count`} className={`text-sm ${over > 0 ? "font-semibold text-danger" : "text-muted"}`}>
              <span aria-hidden="true">{fill(counter.count, { count, max })}</span>
              <span className="sr-only">{fill(counter.described, { count, max })}</span>
              {over > 0 ? <span>{` · ${fill(counter.over, { over })}`}</span> : null}
            </p>
          ) : null}
        </>
      )}
    </Field>
  );
}
