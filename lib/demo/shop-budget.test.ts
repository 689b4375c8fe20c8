import { describe, expect, it, vi } from "vitest";
import { createDemoShopBudget, takeDemoShopPress } from "./shop-budget";

describe("the demo shop's budget", () => {
  it("opens a few checkouts a minute per address, counts an IPv6 address by its /64, and gives them back with time", () => {
    vi.useFakeTimers();
    try {
      const budget = createDemoShopBudget({ perAddressPerMinute: 3, perMinute: 100 });
      for (let press = 0; press < 3; press++) expect(takeDemoShopPress(budget, "203.0.113.7")).toBe(true);
      expect(takeDemoShopPress(budget, "203.0.113.7")).toBe(false);
      expect(takeDemoShopPress(budget, "203.0.113.8")).toBe(true);

      for (let press = 0; press < 3; press++) expect(takeDemoShopPress(budget, `2001:db8:1:2::${press + 1}`)).toBe(true);
      // Another address of the same /64: the same line.
      expect(takeDemoShopPress(budget, "2001:db8:1:2:ffff::9")).toBe(false);
      expect(takeDemoShopPress(budget, "2001:db8:1:3::1")).toBe(true);

      vi.advanceTimersByTime(60_000);
      expect(takeDemoShopPress(budget, "203.0.113.7")).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("caps the whole instance whatever the addresses", () => {
    const budget = createDemoShopBudget({ perAddressPerMinute: 100, perMinute: 5 });
    for (let press = 0; press < 5; press++) expect(takeDemoShopPress(budget, `198.51.100.${press}`)).toBe(true);
    expect(takeDemoShopPress(budget, "198.51.100.200")).toBe(false);
  });
});
