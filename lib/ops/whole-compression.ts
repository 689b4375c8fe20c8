import "server-only";
import type { ServerResponse } from "node:http";

/**
 * A prepared page's document compressed in one piece (lib/security/prepared-page.ts says which
 * pages). Next flushes its compressor after every chunk of a page it writes (`res.flush()`, added
 * by its `compression` middleware), so that a page with Suspense boundaries reaches the browser
 * as it streams. The prepared pages have none (the checkout's pages must read without JavaScript,
 * and are sent whole once the partner API has answered), and for them each flush only costs a
 * sync-flush block and a socket write per chunk (the offers page: four), and a compressed document
 * 12–22 % larger (the offers page's 5.7 KB was 7.1 KB; README, "What was done for speed"). Without
 * `flush`, the compressor writes the document when Next ends it, in one piece.
 *
 * `flush` becomes a property that reads as nothing and ignores being set: Next only calls it
 * when it is a function, and the compression middleware, which sets it on every response it
 * handles, sets it after this runs. An uncompressed answer is unchanged (Next writes its chunks as
 * before). A page given Suspense boundaries later must not be prepared, or must drop this.
 */
export function compressWhole(response: ServerResponse): void {
  Object.defineProperty(response, "flush", {
    configurable: true,
    get: () => undefined,
    set: () => {},
  });
}
