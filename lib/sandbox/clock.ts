import "server-only";
import { eq, sql } from "drizzle-orm";
import type { SandboxDb } from "./db/connection";
import { sandboxAccounts } from "./db/schema";

/**
 * The accounts' test clocks: the real clock plus what QA advanced each account by (the control
 * API), kept in the database so that every process serving the sandbox reads the same time.
 */
export class AccountClocks {
  constructor(
    /** The real clock under the test clocks (tests inject theirs). */
    readonly real: () => number,
  ) {}

  /** The account's test clock, read in `db` (a transaction's, where one is open). */
  async now(db: SandboxDb, account: string): Promise<number> {
    return this.real() + (await this.offsetOf(db, account));
  }

  async read(db: SandboxDb, account: string): Promise<{ now: number; offsetSeconds: number }> {
    const offset = await this.offsetOf(db, account);
    return { now: this.real() + offset, offsetSeconds: Math.round(offset / 1000) };
  }

  /** Moves the account's clock on; what that makes due is the engine's to apply (its tick). */
  async advance(db: SandboxDb, account: string, seconds: number): Promise<void> {
    await db
      .insert(sandboxAccounts)
      .values({ id: account, clockOffsetMs: seconds * 1000 })
      .onConflictDoUpdate({
        target: sandboxAccounts.id,
        set: { clockOffsetMs: sql`${sandboxAccounts.clockOffsetMs} + ${seconds * 1000}` },
      });
  }

  /** Puts the account's clock back to the real time. */
  async reset(db: SandboxDb, account: string): Promise<void> {
    await db
      .insert(sandboxAccounts)
      .values({ id: account, clockOffsetMs: 0 })
      .onConflictDoUpdate({ target: sandboxAccounts.id, set: { clockOffsetMs: 0 } });
  }

  private async offsetOf(db: SandboxDb, account: string): Promise<number> {
    const [row] = await db.select({ offset: sandboxAccounts.clockOffsetMs }).from(sandboxAccounts).where(eq(sandboxAccounts.id, account));
    return row?.offset ?? 0;
  }
}
