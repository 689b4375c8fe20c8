import { describe, expect, it } from "vitest";
import { lagSummary, mergeTallies, tallyDeliveries, type Arrival, type Written } from "./notification-stats";

const written: Written[] = [
  { id: "a1", partnerId: "a", partnerSeq: 1, at: 0 },
  { id: "a2", partnerId: "a", partnerSeq: 2, at: 10 },
  { id: "a3", partnerId: "a", partnerSeq: 3, at: 20 },
  { id: "b1", partnerId: "b", partnerSeq: 1, at: 5 },
];

describe("the notifications bench's tally", () => {
  it("counts each partner's deliveries once, with the lag from commit to first arrival", () => {
    const arrivals: Arrival[] = [
      { id: "a1", partnerId: "a", at: 100 },
      { id: "b1", partnerId: "b", at: 50 },
      { id: "a2", partnerId: "a", at: 110 },
      { id: "a2", partnerId: "a", at: 400 },
    ];
    const tallies = tallyDeliveries(written, arrivals);
    expect(tallies.get("a")).toEqual({ written: 3, delivered: 2, duplicates: 1, unknown: 0, outOfOrder: 0, lags: [100, 100] });
    expect(tallies.get("b")).toEqual({ written: 1, delivered: 1, duplicates: 0, unknown: 0, outOfOrder: 0, lags: [45] });
  });

  it("sees a partner's notification that came after a later one of its feed, and one never written", () => {
    const arrivals: Arrival[] = [
      { id: "a2", partnerId: "a", at: 30 },
      { id: "a1", partnerId: "a", at: 40 },
      { id: "a3", partnerId: "a", at: 50 },
      { id: "b1", partnerId: "a", at: 60 },
      { id: "zz", partnerId: "b", at: 70 },
    ];
    const tallies = tallyDeliveries(written, arrivals);
    expect(tallies.get("a")).toMatchObject({ delivered: 3, outOfOrder: 1, unknown: 1 });
    expect(tallies.get("b")).toMatchObject({ delivered: 0, unknown: 1 });
  });

  it("merges partners and summarises the lags", () => {
    const merged = mergeTallies(tallyDeliveries(written, [{ id: "a1", partnerId: "a", at: 10 }]).values());
    expect(merged).toMatchObject({ written: 4, delivered: 1, lags: [10] });
    expect(lagSummary([1, 2, 3, 4, 100])).toEqual({ p50: 3, p95: 100, p99: 100, max: 100 });
    expect(lagSummary([]).max).toBeNaN();
  });
});
