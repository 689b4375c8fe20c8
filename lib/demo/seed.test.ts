import { describe, expect, it } from "vitest";
import { needsRehash, verifyPassword } from "@/lib/identity/passwords";
import { DEMO_STAFF } from "./seed";

describe("the demo accounts' stored hashes", () => {
  it("each opens its published password, at today's cost", async () => {
    for (const staff of DEMO_STAFF) {
      expect(needsRehash(staff.passwordHash), staff.email).toBe(false);
      expect(await verifyPassword(staff.password, staff.passwordHash), staff.email).toBe(true);
    }
  });

  it("no two accounts share a salt", () => {
    const salts = DEMO_STAFF.map((staff) => staff.passwordHash.split("$")[4]);
    expect(new Set(salts).size).toBe(DEMO_STAFF.length);
  });
});
