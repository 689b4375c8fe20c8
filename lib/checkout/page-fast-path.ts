import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { compressWhole } from "@/lib/ops/whole-compression";
import { preparePageRequest } from "@/lib/security/prepared-page";
import { withPagePreload } from "./page-preload";

/**
 * The speed path for the pages every customer loads, as one step of the server entry: the
 * request's headers set without the proxy (lib/security/prepared-page.ts), the document compressed
 * whole (lib/ops/whole-compression.ts), and the offers and status pages' reads started at once
 * (./page-preload.ts). PAGE_FAST_PATH=off turns it off (read once, at start).
 */
export function pageFastPath(): ((request: IncomingMessage, response: ServerResponse, handOn: () => void) => void) | undefined {
  if (process.env.PAGE_FAST_PATH === "off") return undefined;
  return (request, response, handOn) => {
    if (!preparePageRequest(request, response)) return handOn();
    compressWhole(response);
    withPagePreload(request, () => {
      handOn();
      return true;
    });
  };
}
