import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEMO_STAFF, DEMO_TOTP_SECRET } from "@/lib/demo/seed";

/**
 * The demo accounts as the staff read them: on the first screen of the back-office guide, in both
 * languages (before its first section), exactly as the demo seeds them, and the QA guide and the
 * README lead there. A password changed in the seed and not in the guide fails here.
 */
const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), "utf8");
const firstScreen = (text: string) => text.slice(0, text.indexOf("\n## "));

const SHOWN = ["staff_demo_aurora", "staff_demo_aurora_agent", "staff_demo_grupo"];

describe("the back-office guide's demo accounts", () => {
  it.each(["docs/staff/back-office.en.md", "docs/staff/back-office.es.md"])("are on the first screen of %s, as seeded", (file) => {
    const top = firstScreen(read(file));
    const accounts = DEMO_STAFF.filter((account) => SHOWN.includes(account.id));
    expect(accounts.map((account) => account.role).sort()).toEqual(["admin", "admin", "agent"]);
    for (const account of accounts) {
      expect(top, account.email).toContain(`\`${account.email}\``);
      expect(top, account.email).toContain(`\`${account.password}\``);
    }
    expect(top).toContain(`\`${DEMO_TOTP_SECRET}\``);
  });

  it("are where the QA guide and the README send their reader", () => {
    expect(read("docs/qa/README.md")).toContain("(../staff/back-office.en.md#trying-it-the-demo-accounts)");
    expect(read("README.md")).toContain("(docs/staff/back-office.en.md#trying-it-the-demo-accounts)");
  });
});
