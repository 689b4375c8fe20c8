import { readFile } from "node:fs/promises";
import path from "node:path";
import { routeHandler } from "@/lib/http/request-scope";

/**
 * GET /docs/scalar.js: Scalar's API reference, its self-contained browser build, served from our own
 * origin (the page's policy allows scripts by nonce from here, and no CDN is reachable from every
 * network). Only /docs loads it. Read from the installed package once per process.
 */
const FILE = path.join(process.cwd(), "node_modules", "@scalar", "api-reference", "dist", "browser", "standalone.js");
let script: Promise<Buffer> | undefined;

async function get() {
  const body = await (script ??= readFile(FILE));
  return new Response(new Uint8Array(body), {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=86400" },
  });
}

export const GET = routeHandler("GET /docs/scalar.js", get);
