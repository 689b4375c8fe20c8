import "server-only";
import { logError, type loggerFor } from "@/lib/logger";

export interface Wakeable {
  /** Work may be due: run a pass now (a call while one runs makes it run once more after it). */
  wake(): void;
  /** Resolves when no pass is running. */
  idle(): Promise<void>;
}

/**
 * Runs `pass` when woken, one pass at a time: a wake while a pass runs makes it run once more
 * after it, so what came meanwhile is never left for a timer. A pass that fails is logged with
 * `failure` and ends; the next wake runs it again.
 */
export function wakeable(pass: () => Promise<void>, log: ReturnType<typeof loggerFor>, failure: string): Wakeable {
  let running: Promise<void> | undefined;
  let again = false;
  async function passes(): Promise<void> {
    do {
      again = false;
      await pass();
    } while (again);
  }
  return {
    wake() {
      if (running) {
        again = true;
        return;
      }
      running = passes()
        .catch((error: unknown) => logError(log, failure, error))
        .finally(() => {
          running = undefined;
        });
    },
    async idle() {
      while (running) await running;
    },
  };
}
