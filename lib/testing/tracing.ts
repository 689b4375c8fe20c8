import { context, propagation, trace } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-node";
import { scrubbing } from "@/lib/ops/tracing";
import { processSlot } from "@/lib/process/singleton";
import { markTracingEnabled } from "@/lib/tracing/spans";

/** Spans recorded in memory, as lib/ops/tracing.ts would export them (scrubbed), for a test file. */
export interface RecordedSpans {
  /** The spans ended so far, as exported. */
  spans(): ReadableSpan[];
  /** The spans ended so far, named `name`. */
  named(name: string): ReadableSpan[];
  clear(): void;
  /** Unregisters the provider: the API is a no-op again. */
  stop(): Promise<void>;
}

/** Registers a tracer provider (the process's, for this test file) whose spans go through the exporter's scrubbing into memory. */
export function recordSpans(): RecordedSpans {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(scrubbing(exporter))] });
  provider.register({ propagator: new W3CTraceContextPropagator() });
  markTracingEnabled();
  return {
    spans: () => exporter.getFinishedSpans(),
    named: (name) => exporter.getFinishedSpans().filter((span) => span.name === name),
    clear: () => exporter.reset(),
    async stop() {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
      processSlot<boolean>("tracing.enabled").clear();
    },
  };
}

/** A span's W3C traceparent, as the app stores and sends it. */
export function traceparentOf(span: ReadableSpan): string {
  const ids = span.spanContext();
  return `00-${ids.traceId}-${ids.spanId}-0${ids.traceFlags}`;
}
