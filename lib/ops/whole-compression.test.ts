/**
 * A prepared page compressed in one piece (lib/ops/whole-compression.ts), on a real node:http
 * server with Next's own compression middleware, writing a document the way Next's
 * pipeToNodeResponse does: a chunk at a time, each followed by `res.flush()` when it is a function.
 */
import { createServer, get, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compressWhole } from "./whole-compression";

type Middleware = (request: IncomingMessage, response: ServerResponse, next: () => void) => void;
const compression = createRequire(import.meta.url)("next/dist/compiled/compression") as () => Middleware;

const CHUNKS = ['<!DOCTYPE html><html lang="es"><head></head><body>', "<main>".padEnd(20_000, "x"), "</main>", "</body></html>"];
// The empty stored block a zlib sync flush writes between chunks.
const SYNC_FLUSH = Buffer.from([0x00, 0x00, 0xff, 0xff]);

let server: Server;
let origin: string;

beforeAll(async () => {
  const compress = compression();
  server = createServer((request, response) => {
    if (request.url === "/whole") compressWhole(response);
    compress(request, response, () => {
      response.setHeader("Content-Type", "text/html; charset=utf-8");
      void (async () => {
        for (const chunk of CHUNKS) {
          response.write(chunk);
          if ("flush" in response && typeof response.flush === "function") (response.flush as () => void)();
          await new Promise((resolve) => setImmediate(resolve));
        }
        response.end();
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** The raw answer, still compressed. */
function rawGet(path: string, acceptEncoding: string): Promise<{ encoding: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(`${origin}${path}`, { headers: { "Accept-Encoding": acceptEncoding } }, (response) => {
      const parts: Buffer[] = [];
      response.on("data", (part: Buffer) => parts.push(part));
      response.on("end", () => resolve({ encoding: response.headers["content-encoding"], body: Buffer.concat(parts) }));
      response.on("error", reject);
    }).on("error", reject);
  });
}

describe("a prepared page's compressed document", () => {
  it("is compressed in one piece: no flush between Next's chunks, the same document, smaller", async () => {
    const whole = await rawGet("/whole", "gzip");
    expect(whole.encoding).toBe("gzip");
    expect(gunzipSync(whole.body).toString("utf8")).toBe(CHUNKS.join(""));
    expect(whole.body.includes(SYNC_FLUSH)).toBe(false);

    // What the pages not prepared still get (and these did before): a flush after every chunk.
    const streamed = await rawGet("/streamed", "gzip");
    expect(gunzipSync(streamed.body).toString("utf8")).toBe(CHUNKS.join(""));
    expect(streamed.body.includes(SYNC_FLUSH)).toBe(true);
    expect(whole.body.length).toBeLessThan(streamed.body.length);
  });

  it("leaves an uncompressed answer as it was", async () => {
    const plain = await rawGet("/whole", "identity");
    expect(plain.encoding).toBeUndefined();
    expect(plain.body.toString("utf8")).toBe(CHUNKS.join(""));
  });
});
