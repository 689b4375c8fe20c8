"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { useHydrated } from "@/components/ui/use-hydrated";

/**
 * The payment link in a read-only field (selectable and copyable by hand, JavaScript or not) and,
 * once the page runs JavaScript, a button that copies it, with the outcome said in a live region.
 */
export function CopyLink({
  url,
  label,
  text,
  id = "payment-link-url",
}: {
  url: string;
  label: string;
  text: { copy: string; copied: string; copyFailed: string };
  id?: string;
}) {
  const hydrated = useHydrated();
  const [outcome, setOutcome] = useState<"copied" | "failed" | undefined>();
  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      setOutcome("copied");
    } catch {
      setOutcome("failed");
    }
  }
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={id} className="font-semibold">
        {label}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id={id}
          readOnly
          value={url}
          onFocus={(event) => event.currentTarget.select()}
          className="block min-h-11 w-full rounded-md border-2 border-line bg-surface px-3 py-2 font-mono text-sm text-ink"
        />
        {hydrated ? (
          <Button type="button" variant="secondary" stretch={false} onClick={copy}>
            {text.copy}
          </Button>
        ) : null}
      </div>
      <p role="status" className="min-h-6 font-semibold">
        {outcome === "copied" ? text.copied : outcome === "failed" ? text.copyFailed : ""}
      </p>
    </div>
  );
}
