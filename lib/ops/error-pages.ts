import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { readdirSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { DATABASE_RETRY_AFTER_S } from "@/lib/app-error";
import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { processSingleton, processSlot } from "@/lib/process/singleton";
import { activeTraceIds } from "@/lib/tracing/spans";

/**
 * Server errors readable without JavaScript. When a page fails, Next answers 500 with a document
 * whose message only its JavaScript renders (App Router error boundaries are client components):
 * without it, a blank page. Next gives a page no other way to set its status, so the answer is
 * replaced here, at the HTTP server (the server entry's, lib/ops/app-server.ts): an HTML answer of
 * 500 or more (or Next's bare text one, to a browser) becomes our own page with the message and a
 * way back in the HTML, in the page's language, and
 * - 503 "try again in a moment", with `Retry-After`, when what failed was the database being
 *   unreachable (lib/db/unavailable.ts), as Next's onRequestError hook reports it for this request;
 * - 500 "something went wrong" otherwise.
 * Route handlers answer JSON in their own format (lib/http/request-scope.ts) and are left alone, as
 * are Next's flight answers (client navigations: its JavaScript shows those) and the sandbox.
 *
 * Each request runs with a small state (AsyncLocalStorage, one per process, lib/process/singleton.ts:
 * the server entry's copy of this module and the pages' are two instances) where Next's onRequestError hook notes what failed
 * and the root layout the language.
 *
 * What the page says and in which language is the domains' (this platform code knows neither the
 * texts nor the embedded checkout): the start-up code registers the renderer
 * (`registerErrorPageRenderer`). Until one is registered, Next's answer is left as it is.
 */

export type RequestFailure = "database_unavailable" | "internal";

/** What the renderer is given to write a failed page's replacement. */
export interface ErrorPageRequest {
  kind: "unavailable" | "error";
  /** The language the root layout noted for the page, if it got that far. */
  pageLocale?: string;
  /** The request, for the language when the page did not get to say (its query, cookie, Accept-Language). */
  request: { url?: string; headers: IncomingMessage["headers"] };
  /** Where "try again" goes: the page that failed (path and query). */
  retryHref: string;
  /** The app's stylesheets, as the failed page linked them (`/_next/static/…css`). */
  stylesheets: readonly string[];
  /** The request's id, for the customer to quote to support. */
  requestId?: string;
  /** With tracing on, the request's trace id (its server span's), quoted beside the request id. */
  traceId?: string;
}

/** Writes the HTML of a failed page's replacement. */
export type ErrorPageRenderer = (page: ErrorPageRequest) => string;

interface RequestState {
  failure?: RequestFailure;
  /** The page's language, once the root layout knew it (the session's, or the partner page's). */
  locale?: string;
}

const rendererSlot = processSlot<ErrorPageRenderer>("ops.error-page-renderer");

function storage(): AsyncLocalStorage<RequestState> {
  return processSingleton("ops.request-state", () => new AsyncLocalStorage<RequestState>());
}

/** Registers what writes the replacement page (the start-up code; registering again replaces it). */
export function registerErrorPageRenderer(renderer: ErrorPageRenderer): void {
  rendererSlot.set(renderer);
}

/** Runs a request's handling with its own state (the server entry, for every request). */
export function runWithRequestState<T>(fn: () => T): T {
  return storage().run({}, fn);
}

/** What Next's onRequestError hook saw fail (a page, an action, a route): the worst kind wins. */
export function noteRequestError(error: unknown): void {
  const state = storage().getStore();
  if (!state) return;
  if (isDatabaseUnavailable(error)) state.failure = "database_unavailable";
  else state.failure ??= "internal";
}

/** The language the page being rendered speaks (the root layout's), for its error page. */
export function noteRequestLocale(locale: string): void {
  const state = storage().getStore();
  if (state) state.locale = locale;
}

/** A page's answer, seen by the HTTP server: replaced when it turns out to be an HTML 5xx. */
export function guardPageResponse(request: IncomingMessage, response: ServerResponse): void {
  if (process.env.NODE_ENV !== "production") return; // `next dev` keeps its error overlay.
  const url = request.url ?? "/";
  if (url === "/sandbox" || url.startsWith("/sandbox/") || url.startsWith("/sandbox?") || url.startsWith("/_next/")) return;
  const registered = rendererSlot.get();
  if (!registered) return;
  const render: ErrorPageRenderer = registered;
  const state = storage().getStore();
  const acceptsHtml = /\btext\/html\b/i.test(String(request.headers.accept ?? ""));
  // The request's server span is the active one here (lib/ops/request-span.ts).
  const traceId = activeTraceIds()?.trace_id;

  // The wrappers stay in place once decided (Next's compression wraps them in turn: putting the
  // originals back would undo its wrappers); they only pass through.
  const original = {
    writeHead: response.writeHead,
    flushHeaders: response.flushHeaders,
    write: response.write,
    end: response.end,
  };
  let mode: "undecided" | "pass" | "replace" = "undecided";

  /** Decided once, when the status and headers are about to go out. */
  function decide(statusCode = response.statusCode, contentType = response.getHeader("content-type")): "pass" | "replace" {
    if (mode !== "undecided") return mode;
    const type = String(contentType ?? "");
    // Next's HTML document, or its bare "Internal Server Error" (text/plain: a form posted without
    // JavaScript whose action failed) answered to a browser.
    const page = /^text\/html\b/i.test(type) || (/^text\/plain\b/i.test(type) && acceptsHtml);
    mode = statusCode >= 500 && page && !response.headersSent ? "replace" : "pass";
    return mode;
  }

  response.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const [statusCode, second, third] = args as [number, unknown, unknown];
    const headers = (typeof second === "object" && second !== null ? second : third) as Record<string, unknown> | undefined;
    const contentType = headers && !Array.isArray(headers) ? headerIn(headers, "content-type") : undefined;
    if (decide(statusCode, (contentType as string | undefined) ?? response.getHeader("content-type")) === "pass") {
      return (original.writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    }
    return this;
  } as ServerResponse["writeHead"];
  response.flushHeaders = function (this: ServerResponse) {
    if (decide() === "pass") original.flushHeaders.call(this);
  };
  response.write = function (this: ServerResponse, ...args: unknown[]) {
    if (decide() === "pass") return (original.write as (...a: unknown[]) => boolean).apply(this, args);
    // Next's document (compressed, possibly) is dropped; the callback, if any, still runs.
    const callback = args.find((arg) => typeof arg === "function") as (() => void) | undefined;
    if (callback) queueMicrotask(callback);
    return true;
  } as ServerResponse["write"];
  response.end = function (this: ServerResponse, ...args: unknown[]) {
    if (decide() === "pass") return (original.end as (...a: unknown[]) => ServerResponse).apply(this, args);
    const callback = args.find((arg) => typeof arg === "function") as (() => void) | undefined;
    // Next reports the error to onRequestError as it renders its document; one turn more, so a
    // report still on its way is in before the kind of page is chosen.
    setImmediate(() => sendErrorPage(this, callback));
    return this;
  } as ServerResponse["end"];

  function sendErrorPage(res: ServerResponse, callback: (() => void) | undefined): void {
    const unavailable = state?.failure === "database_unavailable";
    const html = render({
      kind: unavailable ? "unavailable" : "error",
      pageLocale: state?.locale,
      request,
      retryHref: url,
      stylesheets: preloadedStylesheets(res.getHeader("link")) ?? appStylesheets(),
      requestId: headerValue(res.getHeader("x-request-id")),
      traceId,
    });
    const body = Buffer.from(html, "utf8");
    // What Next (or compression) set for its own document does not describe this one.
    res.removeHeader("Content-Encoding");
    res.removeHeader("Content-Length");
    res.removeHeader("Transfer-Encoding");
    res.removeHeader("ETag");
    res.statusCode = unavailable ? 503 : 500;
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.setHeader("Content-Length", String(body.length));
    res.setHeader("Cache-Control", "no-store");
    if (unavailable) res.setHeader("Retry-After", String(DATABASE_RETRY_AFTER_S));
    (original.writeHead as (this: ServerResponse, status: number) => ServerResponse).call(res, res.statusCode);
    const end = original.end as (this: ServerResponse, ...args: unknown[]) => ServerResponse;
    if (request.method === "HEAD") end.call(res, callback);
    else end.call(res, body, callback);
  }
}

function headerIn(headers: Record<string, unknown>, name: string): unknown {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

function headerValue(value: number | string | string[] | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** The stylesheets Next announced for the failed page (its `Link: <…css>; rel=preload; as="style"` header): the root layout's. */
function preloadedStylesheets(link: number | string | string[] | undefined): string[] | undefined {
  const value = Array.isArray(link) ? link.join(", ") : typeof link === "string" ? link : "";
  const found = [...value.matchAll(/<(\/_next\/static\/[^>]+\.css)>;[^,]*rel=preload[^,]*as="?style/g)].map((match) => match[1]!);
  return found.length > 0 ? found : undefined;
}

let stylesheets: string[] | undefined;

/**
 * Else the build's stylesheets (every `.css` under `.next/static`: one, the app's, with Tailwind),
 * read once.
 */
function appStylesheets(): string[] {
  if (stylesheets) return stylesheets;
  const dir = path.join(process.cwd(), process.env.NEXT_DIST_DIR || ".next", "static");
  try {
    stylesheets = readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".css"))
      .map((file) => `/_next/static/${file.split(path.sep).join("/")}`);
  } catch {
    stylesheets = [];
  }
  return stylesheets;
}
