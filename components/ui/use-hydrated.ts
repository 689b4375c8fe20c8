"use client";

import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False in the server's HTML and during hydration, true once the page's script runs: parts that
 * only make sense with JavaScript (a live character count) appear only then, with no mismatch.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
