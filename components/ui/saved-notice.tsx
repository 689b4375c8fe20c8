"use client";

import type { ReactNode } from "react";
import { Notice } from "./notice";
import { useFocusAfterSubmit } from "./use-focus-after-submit";

/**
 * What a form says once it has saved: a success notice that takes the focus each time the action
 * answers (a screen reader hears it, the keyboard starts from it).
 */
export function SavedNotice({ submission, children }: { submission: number; children: ReactNode }) {
  const ref = useFocusAfterSubmit<HTMLDivElement>(submission);
  return (
    <div ref={ref} tabIndex={-1}>
      <Notice tone="success" live>
        {children}
      </Notice>
    </div>
  );
}
