"use client";

import { useState, type ReactNode, type Ref } from "react";
import { Button } from "./button";

/**
 * A value shown once (a new secret, an invitation link): a success box with its title, a line
 * saying it will not be shown again, the value as the caller renders it (`children`), and a button
 * that copies it. `focusRef` makes the box itself what takes the focus after the form answers.
 */
export function ShownOnce({
  title,
  intro,
  value,
  copy,
  children,
  after,
  focusRef,
}: {
  title: string;
  intro: string;
  value: string;
  copy: { copy: string; copied: string };
  children: ReactNode;
  after?: ReactNode;
  focusRef?: Ref<HTMLDivElement>;
}) {
  const [copied, setCopied] = useState(false);
  return (
    <div
      ref={focusRef}
      tabIndex={focusRef ? -1 : undefined}
      role="status"
      className="flex flex-col gap-2 rounded-card border-l-4 border-success bg-success-soft px-4 py-3"
    >
      <h3 className="font-semibold">{title}</h3>
      <p>{intro}</p>
      <div className="flex flex-wrap items-center gap-2">
        {children}
        <Button
          type="button"
          variant="secondary"
          size="sm"
          onClick={() => {
            void navigator.clipboard?.writeText(value).then(() => setCopied(true));
          }}
        >
          {copied ? copy.copied : copy.copy}
        </Button>
      </div>
      {after}
    </div>
  );
}
