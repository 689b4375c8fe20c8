import "server-only";
import { createHash } from "node:crypto";
import { rootCertificates } from "node:tls";
import { Agent, request, type Dispatcher } from "undici";
import { processSingleton } from "@/lib/process/singleton";

/*
 * How the partner API client sends one attempt of a call. By default undici's `request` (undici is
 * the HTTP client Node's own fetch is built on): the same connection pooling and keep-alive, without
 * the WHATWG Request/Response and stream layers around it, nor, inside Next's server, Next's patched
 * fetch (a tracing span and its data-cache checks on every call). Measured on one GET
 * /financing/{id} of a few KB, 10 at a time: 0.59–0.80 ms of CPU per call with fetch, 0.32–0.39 ms
 * with `request` (docs/contributors/performance.md); the offers and status pages make one each.
 *
 * A `fetch` can still be given (tests' doubles, the sandbox's in-process pages): fetchTransport
 * makes it a transport with the same behaviour.
 *
 * An API behind a private CA (FINANCING_API_CA_FILE) is reached through an undici Agent whose TLS
 * trusts that CA beside Node's public ones: only these calls trust it, not every connection of the
 * process (as NODE_EXTRA_CA_CERTS would).
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

export const undiciTransport: HttpTransport = transportThrough(undefined);

/** undici's `request` trusting these CAs too (PEM certificates); the public CAs only when none. */
export function undiciTransportTrusting(caCertificates: readonly string[] | undefined): HttpTransport {
  return caCertificates === undefined || caCertificates.length === 0 ? undiciTransport : transportThrough(agentTrusting(caCertificates));
}

function transportThrough(dispatcher: Dispatcher | undefined): HttpTransport {
  return async (url, { method, headers, body, signal }) => {
    const response = await request(url, { method: method as "GET", headers, body, signal, dispatcher });
    const text = await response.body.text();
    return { status: response.statusCode, headers: toHeaders(response.headers), text };
  };
}

// One Agent (one connection pool) per set of CAs for the process, whichever clients use it: the
// app builds a client per partner, and each must not open a pool of its own.
function agentTrusting(caCertificates: readonly string[]): Agent {
  const agents = processSingleton("financing.tls-agents", () => new Map<string, Agent>());
  const id = createHash("sha256").update(caCertificates.join("\n")).digest("hex");
  let agent = agents.get(id);
  if (!agent) {
    // `ca` replaces the default trust store: the public roots are given again, the private CA beside them.
    agent = new Agent({ connect: { ca: [...rootCertificates, ...caCertificates] } });
    agents.set(id, agent);
  }
  return agent;
}

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
