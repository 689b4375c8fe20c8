import { percentileOf } from "./journey-stats";

/*
 * The notifications bench's pure part (scripts/bench-notifications.ts): what was written against
 * what the partners' endpoints received, tallied per partner.
 */

/** A notification as written: committed at `at` (ms, performance.now()) at its partner's feed position. */
export interface Written {
  id: string;
  partnerId: string;
  partnerSeq: number;
  at: number;
}

/** A delivery as a partner's endpoint took it, in the order taken. */
export interface Arrival {
  id: string;
  partnerId: string;
  at: number;
}

export interface PartnerTally {
  written: number;
  /** Written and received (once or more). */
  delivered: number;
  /** Received again under an id received before. */
  duplicates: number;
  /** Received but never written (a forged or stray delivery). */
  unknown: number;
  /** Deliveries that came after one of a later feed position: each partner's must be 0. */
  outOfOrder: number;
  /** From each notification's commit to its first arrival, ms. */
  lags: number[];
}

/** Per partner, in the order the partners first appear in `written`. */
export function tallyDeliveries(written: readonly Written[], arrivals: readonly Arrival[]): Map<string, PartnerTally> {
  const byId = new Map(written.map((w) => [w.id, w]));
  const tallies = new Map<string, PartnerTally>();
  const tallyOf = (partnerId: string): PartnerTally => {
    let tally = tallies.get(partnerId);
    if (!tally) {
      tally = { written: 0, delivered: 0, duplicates: 0, unknown: 0, outOfOrder: 0, lags: [] };
      tallies.set(partnerId, tally);
    }
    return tally;
  };
  for (const w of written) tallyOf(w.partnerId).written++;
  const seen = new Set<string>();
  const highest = new Map<string, number>();
  for (const arrival of arrivals) {
    const tally = tallyOf(arrival.partnerId);
    const w = byId.get(arrival.id);
    if (!w || w.partnerId !== arrival.partnerId) {
      tally.unknown++;
      continue;
    }
    if (seen.has(arrival.id)) {
      tally.duplicates++;
      continue;
    }
    seen.add(arrival.id);
    tally.delivered++;
    tally.lags.push(arrival.at - w.at);
    if (w.partnerSeq < (highest.get(w.partnerId) ?? 0)) tally.outOfOrder++;
    highest.set(w.partnerId, Math.max(w.partnerSeq, highest.get(w.partnerId) ?? 0));
  }
  return tallies;
}

/** Several partners' tallies as one (the fast partners'). */
export function mergeTallies(tallies: Iterable<PartnerTally>): PartnerTally {
  const all: PartnerTally = { written: 0, delivered: 0, duplicates: 0, unknown: 0, outOfOrder: 0, lags: [] };
  for (const t of tallies) {
    all.written += t.written;
    all.delivered += t.delivered;
    all.duplicates += t.duplicates;
    all.unknown += t.unknown;
    all.outOfOrder += t.outOfOrder;
    all.lags.push(...t.lags);
  }
  return all;
}

/** The lags' p50 / p95 / p99 / max, ms. */
export function lagSummary(lags: readonly number[]): { p50: number; p95: number; p99: number; max: number } {
  return {
    p50: percentileOf(lags, 50),
    p95: percentileOf(lags, 95),
    p99: percentileOf(lags, 99),
    max: lags.length === 0 ? Number.NaN : Math.max(...lags),
  };
}
