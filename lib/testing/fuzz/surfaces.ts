import fc from "fast-check";
import { appSurfaces } from "./app-surfaces";
import { SURFACES, type FuzzRequest, type FuzzTarget, type SurfaceName } from "./request";
import { sandboxSurfaces } from "./sandbox-surfaces";
import { serverActionRequests } from "./server-actions";

/**
 * Hostile requests for every input surface of the app and of its sandbox, as plain data: the fuzz
 * tests (Vitest in-process for the sandbox, Playwright over HTTP for the app) and `npm run fuzz`
 * send the same ones. Every request here is invalid input: it must get a 4xx (or a redirect, or
 * a page saying nothing is there) and change nothing.
 */

/** Every surface's hostile requests: the app's (its server actions apart) and the sandbox's. */
export function surfaceArbitraries(target: FuzzTarget): Record<SurfaceName, fc.Arbitrary<FuzzRequest>> {
  return { ...appSurfaces(target), "server-actions": serverActionRequests(target), ...sandboxSurfaces(target) };
}

/** A deterministic list of hostile requests, `count` of them, spread over the surfaces. */
export function sampleRequests(
  target: FuzzTarget,
  count: number,
  options: { seed?: number; surfaces?: readonly SurfaceName[] } = {},
): FuzzRequest[] {
  const arbitraries = surfaceArbitraries(target);
  const surfaces = options.surfaces ?? SURFACES;
  // One body in four is sent without a length: limits must hold as bodies are read, not only as declared.
  const all = fc
    .tuple(fc.oneof(...surfaces.map((surface) => arbitraries[surface])), fc.nat(3))
    .map(([request, die]) => (request.body !== undefined && die === 0 ? { ...request, chunked: true } : request));
  return fc.sample(all, { numRuns: count, seed: options.seed ?? 12 });
}
