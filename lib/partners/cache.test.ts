import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/db";
import { partners } from "@/lib/db/schema";
import { DEMO_PARTNER_ID, seedDemoPartner } from "@/lib/demo/seed";
import { DEMO_BLUE_THEME } from "@/lib/theme/demo";
import { partnerTheme, savePartnerTheme } from "@/lib/theme/store";
import { storedTheme } from "@/lib/theme/theme";
import { cachedPartnerById, forgetPartner, PARTNER_CACHE_TTL_MS } from "./cache";

let database: Database;

beforeAll(async () => {
  database = await openDatabase({ dataDir: "memory://" });
  await seedDemoPartner(database.db, { secret: "test_partner_secret_0123456789", appUrl: "http://127.0.0.1:3999" });
});

afterAll(async () => {
  await database?.close();
});

/** A change made by another instance: straight to the database, without this process's forgetPartner. */
async function renameElsewhere(name: string): Promise<void> {
  await database.db.update(partners).set({ name }).where(eq(partners.id, DEMO_PARTNER_ID));
}

describe("cachedPartnerById", () => {
  it("reads a partner once, then answers from memory until forgotten", async () => {
    forgetPartner();
    const first = await cachedPartnerById(database.db, DEMO_PARTNER_ID);
    expect(first?.id).toBe(DEMO_PARTNER_ID);
    await renameElsewhere("Renamed elsewhere");
    // Within the TTL: the same row as before, without a read.
    expect(await cachedPartnerById(database.db, DEMO_PARTNER_ID)).toBe(first);
    forgetPartner(DEMO_PARTNER_ID);
    expect((await cachedPartnerById(database.db, DEMO_PARTNER_ID))?.name).toBe("Renamed elsewhere");
  });

  it("sees another instance's change once the TTL has passed", { timeout: PARTNER_CACHE_TTL_MS + 5_000 }, async () => {
    forgetPartner();
    await cachedPartnerById(database.db, DEMO_PARTNER_ID);
    await renameElsewhere("Changed on another instance");
    expect((await cachedPartnerById(database.db, DEMO_PARTNER_ID))?.name).not.toBe("Changed on another instance");
    await new Promise((resolve) => setTimeout(resolve, PARTNER_CACHE_TTL_MS + 100));
    expect((await cachedPartnerById(database.db, DEMO_PARTNER_ID))?.name).toBe("Changed on another instance");
  });

  it("remembers an unknown partner as none", async () => {
    expect(await cachedPartnerById(database.db, "no-such-partner")).toBeUndefined();
  });

  it("shows a theme saved on this instance at once, validated once per stored theme", async () => {
    forgetPartner();
    const before = await cachedPartnerById(database.db, DEMO_PARTNER_ID);
    const result = await savePartnerTheme(database.db, DEMO_PARTNER_ID, storedTheme(DEMO_BLUE_THEME));
    expect(result.ok).toBe(true);
    const after = await cachedPartnerById(database.db, DEMO_PARTNER_ID);
    expect(after).not.toBe(before);
    expect(partnerTheme(after!)?.brand).toBe(DEMO_BLUE_THEME.brand);
    // The same stored object: the same validated theme, not a new parse.
    expect(partnerTheme(after!)).toBe(partnerTheme(after!));
  });
});
