/**
 * The Content-Security-Policy of every response (set by proxy.ts), as pure functions.
 *
 * Pages: scripts only with this response's nonce ('strict-dynamic' lets Next's own loader add its
 * chunks), styles from our origin or with the nonce, images from us or over https (partners'
 * logos), connections to us only, no plugins, no <base>, forms to us (and, on the checkout, to the
 * provider's checkout the no-JavaScript flow is redirected to), and `frame-ancestors` the partner's
 * origins on its checkout pages, 'none' everywhere else.
 *
 * The sandbox's hosted pages are another system served by this process: one inline stylesheet, no
 * script, forms that redirect to wherever the operation says; their policy says exactly that.
 */

import { isHostNameOrIpLiteral } from "@/lib/security/network/host-name";

export type FrameAncestors = readonly string[];

/** 16 random bytes, base64: a fresh one for every response. */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Only well-formed `http(s)://host[:port]` origins, with a host name or an IP literal, reach a
 * header: a stored value cannot inject a directive nor a wildcard.
 */
export function sanitizeOrigins(values: readonly unknown[]): string[] {
  const origins = new Set<string>();
  for (const value of values) {
    if (typeof value !== "string") continue;
    try {
      const url = new URL(value);
      const web = url.protocol === "https:" || url.protocol === "http:";
      if (web && url.origin === value && isHostNameOrIpLiteral(url.hostname)) origins.add(value);
    } catch {
      // Not an origin: left out.
    }
  }
  return [...origins];
}

function sourceList(origins: readonly string[]): string {
  return origins.length > 0 ? origins.join(" ") : "'none'";
}

export interface PageCspOptions {
  nonce: string;
  /** Origins that may frame the page; empty: none. */
  frameAncestors: FrameAncestors;
  /** Extra origins forms may post (or be redirected) to, besides 'self'. */
  formAction: readonly string[];
  /** Over https: also upgrade any http subresource. */
  https: boolean;
  /** `next dev` needs eval (React's error overlay) and inline styles. */
  development?: boolean;
}

export function pageCsp(options: PageCspOptions): string {
  const nonce = `'nonce-${options.nonce}'`;
  const directives = [
    "default-src 'self'",
    `script-src 'self' ${nonce} 'strict-dynamic'${options.development ? " 'unsafe-eval'" : ""}`,
    `style-src 'self' ${options.development ? "'unsafe-inline'" : nonce}`,
    "img-src 'self' data: https:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    `form-action 'self'${options.formAction.length > 0 ? ` ${options.formAction.join(" ")}` : ""}`,
    `frame-ancestors ${sourceList(options.frameAncestors)}`,
  ];
  if (options.https) directives.push("upgrade-insecure-requests");
  return directives.join("; ");
}

/** The sandbox's hosted pages and API: inline styles (its one stylesheet), nothing else loads. */
export function sandboxCsp(): string {
  return ["default-src 'none'", "style-src 'unsafe-inline'", "img-src 'self' data:", "base-uri 'none'", "frame-ancestors 'none'"].join(
    "; ",
  );
}

/** The nonce of a policy written by pageCsp, for tests and for reading it back. */
export function nonceOf(policy: string): string | undefined {
  return /'nonce-([A-Za-z0-9+/=]+)'/.exec(policy)?.[1];
}
