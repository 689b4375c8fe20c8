import { addressBucket } from "@/lib/security/limits/address-bucket";
import { createTokenBuckets, takeAll, type TokenBuckets } from "@/lib/security/limits/token-bucket";

/**
 * The demo shop's budget (DEMO_SHOP_CHECKOUTS_PER_MINUTE_IP, DEMO_SHOP_CHECKOUTS_PER_MINUTE): anyone
 * may press "Pay in installments" without signing in, and each press opens a checkout session, so
 * presses are counted per client address (an IPv6 one by its /64) and for the whole instance. A
 * person trying the demo stays far inside both. Pure: the action keeps one per process.
 */
export interface DemoShopBudget {
  perAddress: TokenBuckets;
  overall: TokenBuckets;
}

export function createDemoShopBudget(budget: { perAddressPerMinute: number; perMinute: number }): DemoShopBudget {
  return {
    perAddress: createTokenBuckets({ capacity: budget.perAddressPerMinute, perMinute: budget.perAddressPerMinute }),
    overall: createTokenBuckets({ capacity: budget.perMinute, perMinute: budget.perMinute }),
  };
}

/** Takes one press from the client's and the instance's budget; false when either is spent. */
export function takeDemoShopPress(budget: DemoShopBudget, ip: string): boolean {
  return takeAll([
    [budget.perAddress, addressBucket(ip)],
    [budget.overall, "all"],
  ]).ok;
}
