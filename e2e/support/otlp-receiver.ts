import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A stand-in for an OpenTelemetry collector on loopback: it takes OTLP/HTTP JSON exports
 * (`POST /v1/traces`, what the app's exporter sends) and keeps them, raw and as spans. What a
 * collector would receive, nothing more.
 */

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpAttribute[];
  links?: { traceId: string; spanId: string }[];
}
interface OtlpExport {
  resourceSpans?: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans?: { scope?: { name?: string }; spans?: OtlpSpan[] }[] }[];
}

/** A span as received, its attributes as plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  scope: string;
  service: string | undefined;
  attributes: Record<string, string | number | boolean | undefined>;
  links: { traceId: string; spanId: string }[];
}

export interface OtlpReceiver {
  /** `http://127.0.0.1:port`: the app's OTEL_EXPORTER_OTLP_ENDPOINT. */
  endpoint: string;
  /** Every body received, as it came: what must hold nothing personal. */
  raw(): string;
  spans(): ReceivedSpan[];
  close(): Promise<void>;
}

function plain(value: OtlpValue): string | number | boolean | undefined {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.boolValue ?? value.doubleValue;
}

function attributesOf(attributes: OtlpAttribute[] = []): ReceivedSpan["attributes"] {
  return Object.fromEntries(attributes.map((attribute) => [attribute.key, plain(attribute.value)]));
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const bodies: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method === "POST" && request.url === "/v1/traces") bodies.push(Buffer.concat(chunks).toString("utf8"));
      response.writeHead(200, { "Content-Type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    raw: () => bodies.join("\n"),
    spans: () =>
      bodies.flatMap((body) =>
        ((JSON.parse(body) as OtlpExport).resourceSpans ?? []).flatMap((resourceSpans) => {
          const service = attributesOf(resourceSpans.resource?.attributes)["service.name"];
          return (resourceSpans.scopeSpans ?? []).flatMap((scopeSpans) =>
            (scopeSpans.spans ?? []).map((span) => ({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId || undefined,
              name: span.name,
              scope: scopeSpans.scope?.name ?? "",
              service: typeof service === "string" ? service : undefined,
              attributes: attributesOf(span.attributes),
              links: (span.links ?? []).map((link) => ({ traceId: link.traceId, spanId: link.spanId })),
            })),
          );
        }),
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
