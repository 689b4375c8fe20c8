import { textProblem } from "@/lib/validation/text";

/**
 * What proxy.ts refuses before Next routes a request, so that no surface answers hostile input
 * with a 5xx (design: every surface answers bad input with a 4xx in its own error format):
 *
 * - a path or query Next cannot decode (a malformed percent-escape, an escaped lone surrogate such
 *   as `%ED%A0%80`), or one that decodes to control characters: 400 (Next itself answers a bare
 *   text/plain 500 for the first, and the second would reach the database);
 * - a body whose declared length passes the surface's limit: 413, before it is read (bodies sent
 *   without a length are capped while read, by each handler, and for a server-action post here: the
 *   proxy reads its body anyway, and Next's own cap of an action's body throws, a 500);
 * - a server-action post that is not a well-formed form: 400 (Next's decoding of the reply throws
 *   otherwise, a 500).
 *
 * Pure functions over the request's parts: the proxy builds the responses (`guardResponse`).
 */

export type Surface = "api" | "sandbox" | "page";

export function surfaceOf(pathname: string): Surface {
  if (pathname === "/api" || pathname.startsWith("/api/")) return "api";
  if (pathname === "/sandbox" || pathname.startsWith("/sandbox/")) return "sandbox";
  return "page";
}

export interface Refusal {
  status: 400 | 413;
  /** The part named in the error: `(path)`, `(query)`, `(body)`, `(form)`. */
  field: string;
  message: string;
}

function decodedProblem(raw: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return "has a malformed percent-escape";
  }
  const problem = textProblem(decoded);
  if (problem === "control_character") return "contains control characters";
  if (problem === "lone_surrogate") return "is not well-formed Unicode";
  return undefined;
}

/** The path and query as sent, still percent-encoded (nextUrl re-encodes the query it parsed). */
export function rawPathAndQuery(url: string): { pathname: string; search: string } {
  const rest = url.replace(/^[a-z][a-z\d+.-]*:\/\/[^/?#]*/i, "").split("#", 1)[0]!;
  const q = rest.indexOf("?");
  return q === -1 ? { pathname: rest, search: "" } : { pathname: rest.slice(0, q), search: rest.slice(q) };
}

/** The raw (still encoded) path and query, as the request line has them. */
export function checkUrl(rawPathname: string, rawSearch: string): Refusal | undefined {
  for (const segment of rawPathname.split("/")) {
    const problem = decodedProblem(segment);
    if (problem) return { status: 400, field: "(path)", message: `The path ${problem}` };
  }
  const query = rawSearch.startsWith("?") ? rawSearch.slice(1) : rawSearch;
  for (const pair of query.split("&")) {
    for (const part of pair.split("=")) {
      const problem = decodedProblem(part.replace(/\+/g, " "));
      if (problem) return { status: 400, field: "(query)", message: `The query ${problem}` };
    }
  }
  return undefined;
}

/** Bytes: the partner API of ours, the webhook receiver, forms and server actions, the sandbox. */
export const BODY_LIMITS = {
  webhook: 4 * 1024,
  api: 64 * 1024,
  page: 64 * 1024,
  sandbox: 64 * 1024,
} as const;

export function bodyLimitFor(pathname: string): number {
  if (pathname.startsWith("/api/webhooks/")) return BODY_LIMITS.webhook;
  return BODY_LIMITS[surfaceOf(pathname)];
}

/** A declared Content-Length over the limit (a body without one is capped while it is read). */
export function checkDeclaredLength(pathname: string, contentLength: string | null): Refusal | undefined {
  if (contentLength === null) return undefined;
  const limit = bodyLimitFor(pathname);
  const length = Number(contentLength.trim());
  if (!/^\d+$/.test(contentLength.trim()) || length <= limit) return undefined;
  return bodyTooLarge(limit);
}

function bodyTooLarge(limit: number): Refusal {
  return { status: 413, field: "(body)", message: `The body is larger than ${limit} bytes` };
}

/**
 * A post Next would treat as a server action: one with the `Next-Action` header (from React's
 * client), or a multipart form post to a page (a form without JavaScript).
 */
export function isActionPost(method: string, pathname: string, headers: Headers): boolean {
  if (method.toUpperCase() !== "POST" || surfaceOf(pathname) !== "page") return false;
  return headers.has("next-action") || isMultipart(headers.get("content-type"));
}

function isMultipart(contentType: string | null): boolean {
  return (contentType ?? "").toLowerCase().trimStart().startsWith("multipart/form-data");
}

/*
 * React's encoding of a server action's arguments (its "reply"): field `0` holds the argument list
 * as JSON, in which a string starting with `$` is a reference. Our actions take a form and perhaps
 * the previous state, so only these references can be legitimate: `$K<n>` (a FormData), `$$…` (an
 * escaped `$`), and the encodings of plain values. Anything else (`$@` promises, `$F` server
 * references, `$Q` maps, streams, …) points at parts the post must also carry, and a missing one
 * makes Next's decoding throw.
 */
const PLAIN_REFERENCE = /^\$(\$|K\d+$|undefined$|NaN$|Infinity$|-Infinity$|-0$|D|n-?\d+$)/;

function referencesArePlain(value: unknown, depth = 0): boolean {
  if (depth > 32) return false;
  if (typeof value === "string") return !value.startsWith("$") || PLAIN_REFERENCE.test(value);
  if (Array.isArray(value)) return value.every((item) => referencesArePlain(item, depth + 1));
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).every(([key, item]) => !key.startsWith("$") && referencesArePlain(item, depth + 1));
  }
  return true;
}

/**
 * The form of an action post, parsed by the proxy (undefined: it could not be parsed). With the
 * `Next-Action` header it must be React's reply: a multipart form whose field `0` is a JSON list of
 * plain values and forms. Without it, any parseable multipart form is left to Next.
 */
export function checkActionForm(headers: Headers, form: FormData | undefined): Refusal | undefined {
  const refuse: Refusal = { status: 400, field: "(form)", message: "A server action takes a form" };
  if (form === undefined) return refuse;
  if (!headers.has("next-action")) return undefined;
  if (!isMultipart(headers.get("content-type"))) return refuse;
  const root = form.get("0");
  if (typeof root !== "string") return refuse;
  let args: unknown;
  try {
    args = JSON.parse(root);
  } catch {
    return refuse;
  }
  // And one of the arguments is a form: every action of ours takes one.
  const hasForm = Array.isArray(args) && args.some((arg) => typeof arg === "string" && /^\$K\d+$/.test(arg));
  return Array.isArray(args) && args.length <= 4 && hasForm && referencesArePlain(args) ? undefined : refuse;
}

/** Whether a request with the `Next-Action` header needs its form checked (any other type is refused). */
export function actionContentTypeRefusal(headers: Headers): Refusal | undefined {
  if (!headers.has("next-action") || isMultipart(headers.get("content-type"))) return undefined;
  return { status: 400, field: "(form)", message: "A server action takes a form" };
}

/** Headers of a refusal: nothing to run, frame or keep (the static security headers come from next.config.mjs). */
const REFUSAL_HEADERS = {
  "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
  "X-Frame-Options": "DENY",
  "Cache-Control": "no-store",
};

/**
 * The refusal in the surface's own error format: ours for /api (`{ error: { code, message, fields } }`),
 * the partner API's general format for the sandbox (`{ error, message, timestamp }`), plain text
 * for pages.
 */
export function refusalResponse(pathname: string, refusal: Refusal, now = Date.now()): Response {
  const surface = surfaceOf(pathname);
  if (surface === "api") {
    // The codes the API documents for these statuses (lib/checkout/api/openapi.ts): a body over the
    // limit is `payload_too_large`, whoever refuses it (here, or the route for a chunked body).
    const code = refusal.status === 413 ? "payload_too_large" : "validation_failed";
    const body = { error: { code, message: refusal.message, fields: [{ field: refusal.field, message: refusal.message }] } };
    return Response.json(body, { status: refusal.status, headers: REFUSAL_HEADERS });
  }
  if (surface === "sandbox") {
    const error = refusal.status === 413 ? "Payload Too Large" : "Bad Request";
    return Response.json(
      { error, message: refusal.message, timestamp: new Date(now).toISOString() },
      { status: refusal.status, headers: REFUSAL_HEADERS },
    );
  }
  return new Response(`${refusal.message}.\n`, {
    status: refusal.status,
    headers: { ...REFUSAL_HEADERS, "Content-Type": "text/plain; charset=utf-8" },
  });
}

/** The methods some route of the app serves. */
export const SERVED_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

const SERVED_ALLOW = [...SERVED_METHODS].join(", ");

/**
 * The headers next.config.mjs puts on every response: an answer given before Next (which applies
 * them) must carry them itself.
 */
const STATIC_SECURITY_HEADERS = {
  "Strict-Transport-Security": "max-age=63072000; includeSubDomains",
  "X-Content-Type-Options": "nosniff",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), browsing-topics=()",
  "Referrer-Policy": "strict-origin-when-cross-origin",
};

export interface PlainAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A method no route serves (`TRACE`, WebDAV's `PROPFIND`…), on any URL: 405 with `Allow` and the
 * security headers, in the surface's error format. It must be answered before Next: Next builds a
 * WHATWG `Request` for the proxy, whose constructor throws on `TRACE`, and that is a bare 500 with
 * none of the headers. The HTTP server asks this first (lib/ops/http-server.ts). Undefined for a
 * served method.
 */
export function unservedMethodAnswer(method: string | undefined, rawUrl: string | undefined, now = Date.now()): PlainAnswer | undefined {
  if (method !== undefined && SERVED_METHODS.has(method)) return undefined;
  const shown = /^[A-Za-z-]{1,20}$/.test(method ?? "") ? method! : "This method";
  const message = `${shown} is not allowed here: ${SERVED_ALLOW}`;
  const headers: Record<string, string> = { ...STATIC_SECURITY_HEADERS, ...REFUSAL_HEADERS, Allow: SERVED_ALLOW };
  let pathname = "/";
  try {
    pathname = rawPathAndQuery(rawUrl ?? "/").pathname || "/";
  } catch {
    // The path only picks the format.
  }
  const surface = surfaceOf(pathname);
  if (surface === "api") {
    return {
      status: 405,
      headers: { ...headers, "Content-Type": "application/json" },
      body: JSON.stringify({ error: { code: "method_not_allowed", message } }),
    };
  }
  if (surface === "sandbox") {
    return {
      status: 405,
      headers: { ...headers, "Content-Type": "application/json" },
      body: JSON.stringify({ error: "Method Not Allowed", message, timestamp: new Date(now).toISOString() }),
    };
  }
  return { status: 405, headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" }, body: `${message}.\n` };
}

/**
 * A request the HTTP parser could not read (a malformed request line or header, headers too large,
 * too slow): the status Node would send, with the security headers and a plain-text reason, never a
 * bare answer. Asked by the HTTP server's `clientError` (lib/ops/app-server.ts).
 */
export function unreadableRequestAnswer(status: 400 | 408 | 431): PlainAnswer {
  const message =
    status === 408
      ? "The request took too long to arrive"
      : status === 431
        ? "The request's headers are too large"
        : "The request could not be read";
  return {
    status,
    headers: { ...STATIC_SECURITY_HEADERS, ...REFUSAL_HEADERS, "Content-Type": "text/plain; charset=utf-8" },
    body: `${message}.\n`,
  };
}

/**
 * Everything the proxy checks before routing, in order: the URL, the declared body length, and an
 * action post's body (its size as read, for one sent without a length) and form. `readBody` reads
 * the body (a clone: the route reads it again).
 */
export async function refuseHostileRequest(
  request: { method: string; headers: Headers; rawPathname: string; rawSearch: string; pathname: string },
  readBody: () => Promise<ArrayBuffer>,
): Promise<Response | undefined> {
  const { pathname } = request;
  const refusal =
    checkUrl(request.rawPathname, request.rawSearch) ??
    (request.method === "GET" || request.method === "HEAD"
      ? undefined
      : checkDeclaredLength(pathname, request.headers.get("content-length")));
  if (refusal) return refusalResponse(pathname, refusal);
  if (!isActionPost(request.method, pathname, request.headers)) return undefined;
  const typeRefusal = actionContentTypeRefusal(request.headers);
  if (typeRefusal) return refusalResponse(pathname, typeRefusal);
  const body = await readBody().catch(() => undefined);
  const limit = bodyLimitFor(pathname);
  if (body && body.byteLength > limit) return refusalResponse(pathname, bodyTooLarge(limit));
  const form = body && (await parseForm(body, request.headers.get("content-type")));
  const formRefusal = checkActionForm(request.headers, form);
  return formRefusal ? refusalResponse(pathname, formRefusal) : undefined;
}

/** A multipart (or urlencoded) body as a form; undefined when it is not one. */
async function parseForm(body: ArrayBuffer, contentType: string | null): Promise<FormData | undefined> {
  if (!contentType) return undefined;
  return new Response(body, { headers: { "content-type": contentType } }).formData().catch(() => undefined);
}
