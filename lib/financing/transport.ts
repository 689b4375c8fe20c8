import "server-only";
import { request } from "undici";

/*
 * How the partner API client sends one attempt of a call. By default undici's `request` (undici is
 * the HTTP client Node's own fetch is built on): the same connection pooling and keep-alive, without
 * the WHATWG Request/Response and stream layers around it, nor, inside Next's server, Next's patched
 * fetch (a tracing span and its data-cache checks on every call). Measured on one GET
 * /financing/{id} of a few KB, 10 at a time: 0.59–0.80 ms of CPU per call with fetch, 0.32–0.39 ms
 * with `request` (docs/performance.md); the offers and status pages make one each.
 *
 * A `fetch` can still be given (tests' doubles, the sandbox's in-process pages): fetchTransport
 * makes it a transport with the same behaviour.
 */

/** One attempt, as the client builds it. */
export interface HttpAttempt {
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** Covers the whole exchange, the answer's body included. */
  signal: AbortSignal;
}

/** The answer, read whole. */
export interface HttpExchange {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * Sends an attempt and reads its answer whole. A timeout rejects with the signal's reason (a
 * DOMException named TimeoutError); a failure to connect or a cut connection with the network's
 * error. A redirect is not followed: it is an answer like any other (the partner API never sends one).
 */
export type HttpTransport = (url: URL, attempt: HttpAttempt) => Promise<HttpExchange>;

export const undiciTransport: HttpTransport = async (url, { method, headers, body, signal }) => {
  const response = await request(url, { method: method as "GET", headers, body, signal });
  const text = await response.body.text();
  return { status: response.statusCode, headers: toHeaders(response.headers), text };
};

/** A fetch as a transport: no redirect followed (one is a failure), nothing cached. */
export function fetchTransport(doFetch: typeof fetch): HttpTransport {
  return async (url, { method, headers, body, signal }) => {
    const response = await doFetch(url, { method, headers, body, signal, redirect: "error", cache: "no-store" });
    return { status: response.status, headers: response.headers, text: await response.text() };
  };
}

function toHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const one of value) headers.append(name, one);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}
