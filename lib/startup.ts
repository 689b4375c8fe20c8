import { getDatabase } from "@/lib/db";
import { ConfigError, getEnv } from "@/lib/env";

/**
 * What the server does once, before it takes a request (called from `instrumentation.ts`): the
 * configuration is validated and the database opened and migrated, so a bad setting stops the
 * server at once with a message naming the variable instead of failing a customer's request.
 */
export async function startServer(): Promise<void> {
  try {
    getEnv();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`The server cannot start. ${error.message}`);
    process.exit(1);
  }
  try {
    await getDatabase();
  } catch (error) {
    console.error("The server cannot start: the database could not be opened or migrated.", error);
    process.exit(1);
  }
  const { getCheckoutContext } = await import("@/lib/checkout/flow");
  const { startBackgroundWork } = await import("@/lib/checkout/worker");
  startBackgroundWork(await getCheckoutContext());
}
