// Any unknown address gets the same plain page as an unknown checkout link (styled, and CSP-safe,
// unlike Next's built-in one, which uses inline styles).
export { default } from "./checkout/[sessionId]/not-found";
