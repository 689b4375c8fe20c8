"use client";

import { useEffect, useRef } from "react";
import { MESSAGE_SOURCE, PROTOCOL_VERSION, type CheckoutEvent, type CheckoutMessage, type EmbedStep } from "@/lib/embed/protocol";

/**
 * Rendered only when the checkout runs inside a partner's page (embedded mode): tells that page,
 * and only that page (`parentOrigin`, checked on the server), where the customer is, the outcome,
 * and the height of the content, so the frame can be exactly as tall as the page and never scroll.
 * It measures the element it sits in: the checkout page's own wrapper, not the document, which is
 * never shorter than the frame and so could never shrink it.
 */
export function EmbedBridge({
  parentOrigin,
  sessionId,
  step,
  state,
  final,
  navigateTo,
}: {
  parentOrigin: string;
  sessionId: string;
  step: EmbedStep;
  state: string;
  final: boolean;
  /** A URL of this app the partner's page should open at the top level (the provider hand-off). */
  navigateTo?: string;
}) {
  const marker = useRef<HTMLSpanElement>(null);

  useEffect(() => {
    if (window.parent === window) return;
    const post = (event: CheckoutEvent) => postToParent(parentOrigin, sessionId, event);

    post({ type: "ready" });
    const content = marker.current?.parentElement;
    if (!content) return;
    let last = 0;
    const report = () => {
      const height = Math.ceil(content.getBoundingClientRect().height);
      if (height !== last) {
        last = height;
        post({ type: "resize", height });
      }
    };
    report();
    const observer = new ResizeObserver(report);
    observer.observe(content);
    return () => observer.disconnect();
  }, [parentOrigin, sessionId]);

  useEffect(() => {
    if (window.parent === window) return;
    const post = (event: CheckoutEvent) => postToParent(parentOrigin, sessionId, event);
    post({ type: "step", step, state });
    if (final) post({ type: "outcome", state, final: true });
    if (navigateTo) post({ type: "navigate", url: new URL(navigateTo, window.location.href).href });
  }, [parentOrigin, sessionId, step, state, final, navigateTo]);

  return <span ref={marker} hidden />;
}

function postToParent(parentOrigin: string, sessionId: string, event: CheckoutEvent): void {
  const message: CheckoutMessage = { source: MESSAGE_SOURCE, version: PROTOCOL_VERSION, sessionId, ...event };
  window.parent.postMessage(message, parentOrigin);
}
