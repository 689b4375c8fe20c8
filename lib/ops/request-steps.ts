import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { processSingleton } from "@/lib/process/singleton";

/**
 * Steps a domain runs on a request before Next routes it (lib/ops/app-server.ts calls them; this
 * platform code knows none of them). A step either hands the request on at once, or starts work and
 * hands it on later with `handOn`; it must call `handOn` exactly once. Registered at start-up
 * (lib/startup.ts), one list per process (lib/process/singleton.ts): the start-up runs in Next's
 * bundle, the server outside it.
 */
export type RequestStep = (request: IncomingMessage, response: ServerResponse, handOn: () => void) => void;

function steps(): Map<string, RequestStep> {
  return processSingleton("ops.request-steps", () => new Map<string, RequestStep>());
}

/** Adds (or replaces, by name) a step; steps run in the order they were first registered. */
export function registerRequestStep(name: string, step: RequestStep): void {
  steps().set(name, step);
}

/** Forgets a step (tests). */
export function unregisterRequestStep(name: string): void {
  steps().delete(name);
}

/** Runs the registered steps in turn, then `last`. */
export function runRequestSteps(request: IncomingMessage, response: ServerResponse, last: () => void): void {
  const registered = [...steps().values()];
  const next = (index: number): void => {
    const step = registered[index];
    if (!step) return last();
    let handed = false;
    step(request, response, () => {
      if (handed) return;
      handed = true;
      next(index + 1);
    });
  };
  next(0);
}
