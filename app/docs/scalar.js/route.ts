import { readFile } from "node:fs/promises";
import path from "node:path";
import { withoutRemoteFonts } from "@/lib/docs/reference";
import { routeHandler } from "@/lib/http/request-scope";

/**
 * GET /docs/scalar.js: Scalar's API reference, its self-contained browser build, served from our own
 * origin (the page's policy allows scripts by nonce from here, and no CDN is reachable from every
 * network). Only /docs loads it. Read from the installed package once per process.
 *
 * One change: its stylesheet declares its fonts at fonts.scalar.com, fetched whatever the
 * `withDefaultFonts` option says (1.46); the page's policy would block them anyway. They are
 * declared as local fonts instead, so the page asks nothing of another origin and falls back to
 * the system's fonts.
 */
const FILE = path.join(process.cwd(), "node_modules", "@scalar", "api-reference", "dist", "browser", "standalone.js");
let script: Promise<string> | undefined;

async function get() {
  const body = await (script ??= readFile(FILE, "utf8").then(withoutRemoteFonts));
  return new Response(body, {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=86400" },
  });
}

export const GET = routeHandler("GET /docs/scalar.js", get);
