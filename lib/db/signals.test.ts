import { expect, it, vi } from "vitest";
import type { Db } from "./connection";

it("a signal from another copy of the module (Next bundles routes and the start-up code apart) reaches the listeners", async () => {
  const startup = await import("./signals");
  vi.resetModules();
  const route = await import("./signals");
  expect(route).not.toBe(startup);

  const db = {} as Db;
  startup.shareSignals([db]);
  const heard: string[] = [];
  const stop = await startup.onSignal(db, "test-channel", () => heard.push("woken"));
  route.signal(db, "test-channel");
  expect(heard).toEqual(["woken"]);
  await stop();
});
