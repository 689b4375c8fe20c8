import { IncomingMessage, ServerResponse } from "node:http";
import { Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { registerRequestStep, runRequestSteps, unregisterRequestStep } from "./request-steps";

function exchange() {
  const request = new IncomingMessage(new Socket());
  return { request, response: new ServerResponse(request) };
}

describe("the request steps domains register before Next", () => {
  afterEach(() => {
    unregisterRequestStep("first");
    unregisterRequestStep("second");
  });

  it("run in the order registered, each handing on (at once or later), and Next gets the request once", async () => {
    const seen: string[] = [];
    registerRequestStep("first", (_request, _response, handOn) => {
      seen.push("first");
      setImmediate(handOn);
    });
    registerRequestStep("second", (_request, _response, handOn) => {
      seen.push("second");
      handOn();
      handOn(); // a second call is ignored: Next must not handle a request twice
    });
    const { request, response } = exchange();
    await new Promise<void>((resolve) =>
      runRequestSteps(request, response, () => {
        seen.push("next");
        resolve();
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(["first", "second", "next"]);
  });

  it("with none registered, hand the request to Next at once", () => {
    const { request, response } = exchange();
    let handled = false;
    runRequestSteps(request, response, () => (handled = true));
    expect(handled).toBe(true);
  });
});
