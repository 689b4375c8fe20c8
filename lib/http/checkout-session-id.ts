/**
 * A checkout session's id: `cs_` and 10 to 64 URL-safe characters (lib/checkout/session/sessions.ts
 * makes them). Part of the app's URLs, so the request path's code (the proxy's headers and frame
 * ancestors, lib/security/headers/page-headers.ts) knows it before any domain runs; the checkout and its actions check ids against it
 * too. Pure: no imports.
 */

/** The id's characters after the anchors: for a pattern that embeds the id (a URL's path). */
export const CHECKOUT_SESSION_ID_SOURCE = String.raw`cs_[\w-]{10,64}`;

/** A whole string that is a well-formed session id. */
export const CHECKOUT_SESSION_ID = new RegExp(`^${CHECKOUT_SESSION_ID_SOURCE}$`);

export function isCheckoutSessionId(value: string): boolean {
  return CHECKOUT_SESSION_ID.test(value);
}
