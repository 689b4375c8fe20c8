import { AsyncLocalStorage } from "node:async_hooks";
import { processSingleton } from "@/lib/process/singleton";
import { isRequestId, newRequestId } from "./request-id";

/**
 * The request (or background task) a line is logged for: the logger adds its id to every line
 * written inside `withLogContext`, and the partner API client sends the request id upstream.
 */
export interface LogContext {
  requestId?: string;
  /** Background work: what it is working on (eventId, notificationId, sessionId…). */
  [key: string]: string | undefined;
}

// One per process (lib/process/singleton.ts): Next bundles this module into several chunks
// (instrumentation, each route), and the logger made by the first must see what a route handler puts here.
const storage = processSingleton("logging.context", () => new AsyncLocalStorage<LogContext>());

export function withLogContext<T>(context: LogContext, fn: () => T): T {
  return storage.run({ ...storage.getStore(), ...context }, fn);
}

/** Runs fn for a request with this id (a malformed or missing one is replaced by a new id). */
export function withRequestId<T>(requestId: string | null | undefined, fn: () => T): T {
  return withLogContext({ requestId: isRequestId(requestId) ? requestId : newRequestId() }, fn);
}

export function currentLogContext(): LogContext | undefined {
  return storage.getStore();
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
