import { AsyncLocalStorage } from "node:async_hooks";
import {
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  isSpanContextValid,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { processSingleton, processSlot } from "@/lib/process/singleton";

/**
 * The app's spans, through the OpenTelemetry API only: with no tracer provider registered (tracing
 * off, lib/ops/tracing.ts), every call here meets the API's no-op and costs next to nothing. Pure of
 * I/O: the domains, the logger and tests import it.
 *
 * What a span carries is an allow-list, as for the log: ids (a session's, a notification's, an
 * event's), route and endpoint templates, statuses and counts. Never a customer's data, a URL with
 * its query or a token, a key. The exporter scrubs again (lib/ops/span-scrub.ts), as a second net.
 */

export { SpanKind };

/** The name our spans are recorded under. */
export const TRACER_NAME = "travel-financing-checkout";

/** The attribute that ties every span about a checkout session together: one query finds them all. */
export const SESSION_ID_ATTRIBUTE = "checkout.session_id";

// W3C Trace Context only (traceparent, tracestate): never `baggage`, which would carry whatever an
// agency put there on to the partner API, or the partner's to an agency.
const w3c = new W3CTraceContextPropagator();

/**
 * The request's own span (the HTTP server's, lib/ops/request-span.ts), whatever span is active below
 * it. Kept apart from OpenTelemetry's context: Next runs the route after its proxy in a context
 * rebuilt from the trace headers it wrote on the request (the same trace, but none of our values).
 */
const requestSpans = processSingleton("tracing.request-span", () => new AsyncLocalStorage<Span>());

const enabled = processSlot<boolean>("tracing.enabled");

/** Whether a tracer provider records spans in this process (lib/ops/tracing.ts says so when it starts one). */
export function tracingEnabled(): boolean {
  return enabled.get() === true;
}

/** Called once the tracer provider is registered. */
export function markTracingEnabled(): void {
  enabled.set(true);
}

export function tracer() {
  return trace.getTracer(TRACER_NAME);
}

/** The active span's ids, for log lines; undefined with tracing off (or outside any span). */
export function activeTraceIds(): { trace_id: string; span_id: string } | undefined {
  const span = trace.getActiveSpan();
  if (span === undefined) return undefined;
  const ids = span.spanContext();
  return isSpanContextValid(ids) ? { trace_id: ids.traceId, span_id: ids.spanId } : undefined;
}

/** The active span's W3C `traceparent`; undefined with tracing off. */
export function activeTraceparent(): string | undefined {
  return withTraceHeaders({}).traceparent;
}

/**
 * Where work written for later should hang (a notification's delivery): the active span when it is
 * in the stored trace (a webhook's processing, the plan's request), else the stored trace itself (a
 * page's request, which has a trace of its own, finds an outcome: its notification still belongs to
 * the checkout's trace). Undefined with tracing off.
 */
export function traceparentWithin(stored: string | null | undefined): string | undefined {
  const active = activeTraceparent();
  const storedTrace = trace.getSpanContext(contextFromTraceparent(stored) ?? ROOT_CONTEXT)?.traceId;
  if (active === undefined || storedTrace === undefined) return active ?? stored ?? undefined;
  return active.split("-")[1] === storedTrace ? active : (stored ?? undefined);
}

/**
 * The headers with the active span's `traceparent` (and `tracestate`) added, for a call we make
 * (the partner API, a partner's notification endpoint); the same object when tracing is off.
 */
export function withTraceHeaders(headers: Record<string, string>): Record<string, string> {
  if (trace.getActiveSpan() === undefined) return headers;
  const carrier = { ...headers };
  w3c.inject(context.active(), carrier, defaultTextMapSetter);
  return carrier;
}

/** The remote parent a `traceparent` names (an incoming request's, or one stored with a session); undefined when malformed or absent. */
export function contextFromTraceparent(traceparent: string | null | undefined, tracestate?: string): Context | undefined {
  if (!traceparent) return undefined;
  const carrier: Record<string, string> = { traceparent, ...(tracestate ? { tracestate } : {}) };
  const extracted = w3c.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter);
  return trace.getSpanContext(extracted) ? extracted : undefined;
}

/** Runs a request's handling in its span, active and remembered as the request's. */
export function runInRequestSpan(parent: Context, span: Span, handle: () => void): void {
  requestSpans.run(span, () => context.with(trace.setSpan(parent, span), handle));
}

/** The span of the request being handled (the HTTP server's), or else the active one. */
export function requestSpan(): Span | undefined {
  return requestSpans.getStore() ?? trace.getActiveSpan();
}

/**
 * Notes on the request's span (or the active one) that it is about this checkout session: its id,
 * and a link to the trace the session's story is told in (`traceparent` stored with the session),
 * unless this span is in that trace already.
 */
export function noteSessionOnSpan(sessionId: string, traceparent: string | null | undefined): void {
  const span = requestSpan();
  if (span === undefined || !span.isRecording()) return;
  span.setAttribute(SESSION_ID_ATTRIBUTE, sessionId);
  const linked = contextFromTraceparent(traceparent);
  const target = linked && trace.getSpanContext(linked);
  if (!target || target.traceId === span.spanContext().traceId) return;
  // A request reads its session more than once (a page and its action, a flow's steps): one link per trace.
  const traces = linkedTraces.get(span) ?? new Set<string>();
  if (traces.has(target.traceId)) return;
  traces.add(target.traceId);
  linkedTraces.set(span, traces);
  span.addLink({ context: target });
}

const linkedTraces = new WeakMap<Span, Set<string>>();

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** The parent: by default the active span; a stored session's context for its later work. */
  parent?: Context;
  /** Spans this one follows from without being their child (a worker's round). */
  links?: (Span | undefined)[];
}

/**
 * Runs `fn` in a new active span, ended when it settles. A failure marks the span as an error with
 * the error's class name only: an error's message may quote what it failed on.
 */
export function inSpan<T>(name: string, options: SpanOptions, fn: (span: Span) => Promise<T>): Promise<T> {
  const links = (options.links ?? []).flatMap((span) => (span ? [{ context: span.spanContext() }] : []));
  return tracer().startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes, links },
    options.parent ?? context.active(),
    async (span) => {
      try {
        return await fn(span);
      } catch (error) {
        markFailed(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

/** A span that failed: its status, and the error's class (never its message), or the kind of failure named. */
export function markFailed(span: Span, error: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.setAttribute("error.type", typeof error === "string" ? error : error instanceof Error ? error.name : typeof error);
}
