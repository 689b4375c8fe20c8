import { afterAll, beforeAll } from "vitest";
import type { Database } from "@/lib/db";
import type { Partner } from "@/lib/partners/partners";
import type { CheckoutContext } from "../session/flow";
import { testContext } from "./context";

/** A test file's checkout world with no partner API behind it: a database, the demo partner. */
export interface OfflineWorld {
  database: Database;
  ctx: CheckoutContext;
  partner: Partner;
}

/**
 * Opens the world before the file's tests and closes it after them; its fields are there once the
 * tests run. The partner API's base URL goes nowhere: a test that reaches it fails.
 */
export function offlineWorld(): OfflineWorld {
  const world = {} as OfflineWorld;
  beforeAll(async () => {
    Object.assign(world, await testContext("http://127.0.0.1:9/v1"));
  });
  afterAll(async () => {
    await world.database?.close();
  });
  return world;
}
