import "server-only";
import { AppError } from "@/lib/app-error";
import { getEnv } from "@/lib/config/env";
import type { Db } from "@/lib/db";
import { loggerFor } from "@/lib/logger";
import { clientIpFrom } from "@/lib/security/network/client-ip";
import { addressBucket } from "@/lib/security/limits/address-bucket";
import { sharedBuckets, spendTokens, type SharedBuckets } from "@/lib/security/limits/shared-token-bucket";

/**
 * The budget of the checkout's status polls (`/checkout/{id}/status/data`) and provider returns
 * (`/checkout/{id}/return/*`), which anyone with a session's link can send: token buckets per
 * session and per client address, an IPv6 one by its /64 (STATUS_READS_PER_MINUTE_SESSION,
 * STATUS_READS_PER_MINUTE_IP), each a burst of a minute's worth. They are kept in the database
 * (lib/security/limits/shared-token-bucket.ts), both in one statement, so every instance spends the
 * same budget: a client gets no more by reaching another instance. The status page's poll (every
 * 2.5 s) stays well inside the session's; over either, the request is refused before anything is
 * read. What does reach the partner API is bounded again by the reuse window (AppContext.statusReuse).
 */

export interface StatusThrottle {
  perSession: SharedBuckets;
  perIp: SharedBuckets;
  trustedProxyHops: number;
  /** The buckets' clock (tests); the time of the call otherwise. */
  now?: () => Date;
}

let defaults: StatusThrottle | undefined;

export function statusThrottle(): StatusThrottle {
  if (!defaults) {
    const env = getEnv();
    const { perSessionPerMinute, perIpPerMinute } = env.statusBudget;
    defaults = {
      perSession: sharedBuckets("status-reads:session", perSessionPerMinute),
      perIp: sharedBuckets("status-reads:ip", perIpPerMinute),
      trustedProxyHops: env.TRUSTED_PROXY_HOPS,
    };
  }
  return defaults;
}

/**
 * Takes one token for this request from its session's bucket and its client's, both or neither;
 * when either is empty, answers the refusal: a `rate_limited` AppError (429, the seconds until a
 * token is back as `Retry-After`).
 */
export async function statusReadRefusal(
  db: Pick<Db, "execute">,
  request: Request,
  sessionId: string,
  throttle: StatusThrottle = statusThrottle(),
): Promise<AppError | undefined> {
  const address = addressBucket(clientIpFrom(request.headers, throttle.trustedProxyHops));
  const take = await spendTokens(
    db,
    [
      { buckets: throttle.perSession, key: sessionId },
      { buckets: throttle.perIp, key: address },
    ],
    throttle.now?.(),
  );
  if (take.ok) return undefined;
  const retryAfterS = Math.max(1, Math.ceil(take.retryAfterMs / 1000));
  loggerFor("checkout").info({ sessionId, retryAfter: retryAfterS }, "checkout: status reads over budget, answered 429");
  return new AppError("rate_limited", "Too many status requests. Try again later.", { retryAfterS });
}
