import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { docBlocks, filesOf, stepsOf, unrunShellBlocks } from "./doc-commands";

const TUTORIAL = readFileSync(new URL("../../docs/integrators/tutorial.md", import.meta.url), "utf8");

describe("a guide's commands", () => {
  const markdown = [
    "# Guide",
    "",
    "```sh",
    "npm start",
    "```",
    "",
    "1. A list item:",
    "",
    "   ```sh step=serve background",
    "   node server.mjs",
    "   ```",
    "",
    "```js file=server.mjs",
    "console.log(1);",
    "```",
    "",
    "```sh step=call",
    "curl -sS http://localhost:3000/",
    "```",
  ].join("\n");

  it("are read with the words after their language, list items included", () => {
    const blocks = docBlocks(markdown);
    expect(blocks.map((block) => [block.lang, block.meta, block.line])).toEqual([
      ["sh", {}, 3],
      ["sh", { step: "serve", background: true }, 9],
      ["js", { file: "server.mjs" }, 13],
      ["sh", { step: "call" }, 17],
    ]);
    expect(stepsOf(blocks).get("serve")!.value).toBe("node server.mjs");
    expect(filesOf(blocks)).toEqual(new Map([["server.mjs", "console.log(1);"]]));
    expect(unrunShellBlocks(blocks)).toEqual(["npm start"]);
  });

  it("refuse a step name used twice", () => {
    expect(() => stepsOf(docBlocks(`${markdown}\n\n\`\`\`sh step=call\nagain\n\`\`\`\n`))).toThrow(/step=call is on two blocks/);
  });
});

describe("the integrators' tutorial", () => {
  const blocks = docBlocks(TUTORIAL);

  // What e2e/integrators-tutorial.spec.ts runs, in the tutorial's order: a block renamed, dropped
  // or added without a step fails here, before the browser test.
  it("marks the commands its browser test runs, in order", () => {
    expect([...stepsOf(blocks).keys()]).toEqual(["totp", "receiver", "open-session", "session-url", "read-session"]);
    expect(stepsOf(blocks).get("receiver")!.meta.background).toBe(true);
    expect([...filesOf(blocks).keys()]).toEqual(["receiver.mjs"]);
  });

  it("leaves unrun only installing and starting, which the test's app and packages stand for", () => {
    expect(unrunShellBlocks(blocks)).toEqual(["npm install && npm start", "npm init -y && npm install standardwebhooks"]);
  });
});
