/**
 * The messages the embedded checkout sends to the partner's page (public/embed.js reads them).
 * Sent with `postMessage(message, parentOrigin)`, the parent's origin having been checked against
 * the partner's allowed origins on our server; embed.js accepts them only from the checkout's
 * origin and its own iframe. Documented for partners in docs/integrators/embedding.md.
 */
export const MESSAGE_SOURCE = "travel-checkout";
export const PROTOCOL_VERSION = 1;

/** Where the customer is: the details form, the plans, on the way to the provider, the outcome. */
export type EmbedStep = "details" | "offers" | "provider" | "status";

/** What the frame says, without the envelope every message carries. */
export type CheckoutEvent =
  | { type: "ready" }
  | { type: "step"; step: EmbedStep; state: string }
  | { type: "outcome"; state: string; final: true }
  | { type: "resize"; height: number }
  /** The provider's checkout opens at the top level: embed.js navigates its page there. */
  | { type: "navigate"; url: string };

export type CheckoutMessage = { source: typeof MESSAGE_SOURCE; version: typeof PROTOCOL_VERSION; sessionId: string } & CheckoutEvent;
