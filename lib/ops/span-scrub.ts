import type { Attributes, AttributeValue } from "@opentelemetry/api";
import { routeLabel } from "./route-label";

/**
 * What leaves the process in a span, whoever made it: ours (which carry only ids, templates,
 * statuses and counts) and Next's own, which name the raw URL (`http.target`, with its query) and
 * record an error's message. Pure, for the exporter (lib/ops/tracing.ts) and its tests.
 *
 * - a path, in a name or an attribute of a span not ours (ours name templates built in code), is reduced to its route template (lib/ops/route-label.ts): a
 *   session id, a payment link's or a reset link's token, the webhook token never leave, nor does a
 *   query string;
 * - attributes that may hold a person's data or a secret are dropped whatever their value (a
 *   query, a statement's parameters, headers, the client's address and agent);
 * - an error's message (the span's status message, an exception event's message and stack) is
 *   dropped: its class stays.
 */

/** Attributes whose value is a URL or a path: kept as a route template only. */
const URL_ATTRIBUTES = new Set(["http.target", "http.url", "url.full", "url.path", "http.route", "next.route", "next.page"]);

/** Attributes never exported. */
const DROPPED_ATTRIBUTES = new Set([
  "url.query",
  "http.user_agent",
  "user_agent.original",
  "client.address",
  "client.port",
  "http.client_ip",
  "net.sock.peer.addr",
  "network.peer.address",
  "db.statement",
  "db.query.text",
  "drizzle.query.text",
  "drizzle.query.params",
  "exception.message",
  "exception.stacktrace",
  "enduser.id",
]);

const DROPPED_PREFIXES = ["http.request.header.", "http.response.header.", "baggage."];

// A Next template segment ([id], [...path], [[...slug]]) or a fixed word of a route.
const TEMPLATE_PATH = /^(?:\/(?:\[{1,2}(?:\.\.\.)?[A-Za-z]\w*\]{1,2}|[a-z0-9][a-z0-9._-]*))*\/?$/;

/**
 * A path (or URL) as its route template: a known route's, else "other". In a span's name (`names`),
 * a Next route template not in the list is kept too: Next names its spans by the file's template
 * (`/api/checkout-sessions/[id]/route`), never by the raw path, which it puts in `http.target`.
 */
export function scrubPath(value: string, names = false): string {
  let path = value;
  if (!path.startsWith("/")) {
    const parsed = URL.parse(path);
    if (!parsed) return "other";
    path = parsed.pathname;
  }
  path = path.split(/[?#]/, 1)[0] || "/";
  const label = routeLabel(path);
  if (label !== "other") return label;
  // Next names its route handlers by their file's template (`/api/checkout-sessions/[id]/route`): kept
  // when it is one, with a bracketed parameter; a raw path it does not know is not.
  return names && path.includes("[") && TEMPLATE_PATH.test(path) ? path : "other";
}

/** A span's name with each path in it reduced (`GET /checkout/cs_…?x` → `GET /checkout/[sessionId]`). */
export function scrubSpanName(name: string): string {
  return name
    .split(" ")
    .map((word) => (word.startsWith("/") || /^https?:\/\//i.test(word) ? scrubPath(word, true) : word))
    .join(" ");
}

function scrubValue(value: AttributeValue | undefined): AttributeValue | undefined {
  if (typeof value !== "string") return value;
  // A path or URL anywhere else (a span name copied into an attribute) is reduced the same way.
  return /(^|\s)(\/|https?:\/\/)/i.test(value) ? scrubSpanName(value) : value;
}

/**
 * The attributes that may leave, with paths reduced. `ours`: a span of the app's own tracer
 * (lib/tracing/spans.ts), whose other values are ids and templates built in code (the partner API's
 * `url.template`, `/operations/{id}/status`), kept as they are.
 */
export function scrubAttributes(attributes: Attributes, ours = false): Attributes {
  const kept: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (DROPPED_ATTRIBUTES.has(key) || DROPPED_PREFIXES.some((prefix) => key.startsWith(prefix))) continue;
    if (URL_ATTRIBUTES.has(key) && typeof value === "string") kept[key] = scrubPath(value);
    else kept[key] = ours ? value : scrubValue(value);
  }
  return kept;
}
