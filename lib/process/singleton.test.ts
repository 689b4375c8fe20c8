import { describe, expect, it, vi } from "vitest";

/** A fresh copy of the module, as another bundle of Next holds one. */
async function freshCopy() {
  vi.resetModules();
  return import("./singleton");
}

describe("process-wide singletons", () => {
  it("gives every copy of a module the value the first one made", async () => {
    const first = await freshCopy();
    const second = await freshCopy();
    expect(first).not.toBe(second);
    const made = first.processSingleton("test.shared-map", () => new Map<string, number>([["a", 1]]));
    const create = vi.fn(() => new Map<string, number>());
    expect(second.processSingleton("test.shared-map", create)).toBe(made);
    expect(create).not.toHaveBeenCalled();
  });

  it("keeps names apart", async () => {
    const { processSingleton } = await freshCopy();
    expect(processSingleton("test.one", () => ({ n: 1 }))).not.toBe(processSingleton("test.two", () => ({ n: 1 })));
  });

  it("lets a slot be set in one copy, read in another, and cleared", async () => {
    const writer = (await freshCopy()).processSlot<string>("test.slot");
    const reader = (await freshCopy()).processSlot<string>("test.slot");
    expect(reader.get()).toBeUndefined();
    writer.set("registered");
    expect(reader.get()).toBe("registered");
    reader.clear();
    expect(writer.get()).toBeUndefined();
  });

  it("shares a slot with the singleton of the same name, so a reset makes a new one", async () => {
    const { processSingleton, processSlot } = await freshCopy();
    const before = processSingleton("test.resettable", () => ({}));
    processSlot("test.resettable").clear();
    expect(processSingleton("test.resettable", () => ({}))).not.toBe(before);
  });
});
