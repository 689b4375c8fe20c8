import "server-only";
import { diag, DiagLogLevel, type Attributes } from "@opentelemetry/api";
import { W3CTraceContextPropagator, type ExportResult } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { defaultResource, resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, NodeTracerProvider, type ReadableSpan, type SpanExporter } from "@opentelemetry/sdk-trace-node";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import { loggerFor } from "@/lib/logger";
import { processSlot } from "@/lib/process/singleton";
import { markTracingEnabled, TRACER_NAME } from "@/lib/tracing/spans";
import { onShutdown } from "./lifecycle";
import { scrubAttributes, scrubSpanName } from "./span-scrub";

/**
 * Traces, exported over OTLP/HTTP (JSON) by OpenTelemetry's own SDK for Node when the operator set
 * `OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (lib/config/env.ts checks
 * them); without either, nothing here runs and the API's no-op is all the spans cost. The start-up
 * code (lib/startup.ts, from instrumentation.ts's register()) starts it, before the first request:
 * Next's own spans (pages, server actions, route handlers) then go through the same provider as ours.
 *
 * Every span is scrubbed as it is exported (lib/ops/span-scrub.ts). The SDK reads its other standard
 * variables itself (OTEL_EXPORTER_OTLP_HEADERS, OTEL_BSP_SCHEDULE_DELAY…): docs/operators/monitoring.md.
 */

const log = loggerFor("tracing");

export interface TracingConfig {
  serviceName: string;
}

const provider = processSlot<NodeTracerProvider>("ops.tracing-provider");

export function startTracing(config: TracingConfig): void {
  if (provider.get()) return;
  // What the SDK has to say (a collector that refuses or cannot be reached), at warn, in our log.
  diag.setLogger(
    {
      error: (message) => log.warn(`tracing: ${message}`),
      warn: (message) => log.warn(`tracing: ${message}`),
      info: () => undefined,
      debug: () => undefined,
      verbose: () => undefined,
    },
    DiagLogLevel.WARN,
  );
  const tracerProvider = new NodeTracerProvider({
    resource: defaultResource().merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.serviceName })),
    spanProcessors: [new BatchSpanProcessor(scrubbing(new OTLPTraceExporter()))],
  });
  // Trace Context only: an incoming `baggage` is neither read nor passed on.
  tracerProvider.register({ propagator: new W3CTraceContextPropagator() });
  provider.set(tracerProvider);
  markTracingEnabled();
  // The spans still in the batch leave before the process does.
  onShutdown("tracing", {
    handBack: async () => {
      await tracerProvider.forceFlush().catch((error: unknown) => log.warn({ err: error }, "tracing: the last spans could not be sent"));
      return {};
    },
  });
  log.info({ serviceName: config.serviceName }, "tracing: exporting spans over OTLP");
}

/** The exporter, given each span as it may leave (names, attributes, events and status scrubbed). */
export function scrubbing(exporter: SpanExporter): SpanExporter {
  return {
    export: (spans, done: (result: ExportResult) => void) => exporter.export(spans.map(scrubbedSpan), done),
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}

/** The span as exported: its own fields replaced, the rest (ids, times, resource) read through. */
export function scrubbedSpan(span: ReadableSpan): ReadableSpan {
  const ours = span.instrumentationScope.name === TRACER_NAME;
  return Object.create(span, {
    name: { value: ours ? span.name : scrubSpanName(span.name) },
    attributes: { value: scrubAttributes(span.attributes, ours) },
    // An exception event keeps its class only; other events their scrubbed attributes.
    events: {
      value: span.events.map((event) => ({ ...event, attributes: event.attributes && scrubAttributes(event.attributes as Attributes) })),
    },
    links: { value: span.links.map((link) => ({ ...link, attributes: link.attributes && scrubAttributes(link.attributes) })) },
    status: { value: { code: span.status.code } },
  }) as ReadableSpan;
}
