import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * BENCH_OTLP=1: a stand-in for an OpenTelemetry collector on loopback, for the server measured with
 * tracing on. It reads each OTLP/HTTP export whole and discards it, answering at once as a
 * collector does: what tracing costs the app is its own work (spans, scrubbing, serialising,
 * sending), not a real collector's.
 */
export interface OtlpSink {
  /** `http://127.0.0.1:port`, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  endpoint: string;
  /** Exports received, and their bytes: proof the server measured did export. */
  received(): { exports: number; bytes: number };
  close(): Promise<void>;
}

export async function startOtlpSink(): Promise<OtlpSink> {
  let exports = 0;
  let bytes = 0;
  const server = createServer((request, response) => {
    request.on("data", (chunk: Buffer) => (bytes += chunk.length));
    request.on("end", () => {
      exports += 1;
      response.writeHead(200, { "Content-Type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: () => ({ exports, bytes }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
