/**
 * The request header in which proxy.ts hands a checkout page's path and query to the root layout
 * (a layout sees neither), so that <html lang> is the page's language from the first byte, without
 * JavaScript. Set by the proxy on checkout pages only; any value the client sent is dropped.
 */
export const CHECKOUT_PAGE_HEADER = "x-checkout-page";
