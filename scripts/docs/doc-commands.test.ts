import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { dniLetter, guessDocumentType } from "@/lib/checkout/session/customer";
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

  // A made-up document number fails the checkout's letter check: the one the tutorial gives passes it.
  it("gives a test identity whose document number the checkout accepts", () => {
    const found = /DNI `(\d{8})([A-Z])`/.exec(TUTORIAL);
    expect(found).not.toBeNull();
    expect(dniLetter(found![1]!)).toBe(found![2]);
    expect(guessDocumentType(`${found![1]}${found![2]}`)).toBe("DNI");
  });

  it("leaves unrun only installing and starting, which the test's app and packages stand for", () => {
    expect(unrunShellBlocks(blocks)).toEqual(["npm install && npm start", "npm init -y && npm install standardwebhooks"]);
  });
});

describe("the operators' commands", () => {
  const read = (file: string) => docBlocks(readFileSync(new URL(`../../${file}`, import.meta.url), "utf8"));

  // Without --silent npm prints its own lines about the script first: "prints one line" would be false.
  it("run the bootstrap with --silent, so its one line is the link (as e2e/operator.spec.ts runs it)", () => {
    const bootstrap = read("docs/going-live.md").filter((block) => block.value.includes("create-operator"));
    expect(bootstrap.length).toBeGreaterThan(0);
    for (const block of bootstrap) expect(block.value).toMatch(/^npm run --silent admin -- create-operator /);
  });

  // `npm start` builds on every start: a production-like app is built once and served.
  it("start the production-like app from one build, and give the stand-in a data folder of its own", () => {
    const blocks = read("docs/going-live-tls.md").filter((block) => block.lang === "sh");
    const commands = blocks.map((block) => block.value).join("\n");
    expect(commands).not.toMatch(/npm start/);
    expect(commands).toMatch(/^npm run build$/m);
    expect(commands).toMatch(/FINANCING_API_ENVIRONMENT=production[^]*npm run serve/);
    expect(commands).toMatch(/DATA_DIR=\S+ npm run sandbox/);
  });
});

describe("the QA spec's page", () => {
  const page = readFileSync(new URL("../../docs/qa/playwright-spec.md", import.meta.url), "utf8");
  const needs = page.slice(page.indexOf("## What it needs"), page.indexOf("## Run it"));

  // A browser on another address than APP_URL's is sent to localhost; a machine with no download
  // access has no Playwright browser: both cost a QA engineer their first hour.
  it("says what a run needs of the deployment and of the test's machine: APP_URL, and an installed browser", () => {
    expect(needs).toContain("`APP_URL`");
    expect(needs).toMatch(/executablePath: "\/usr\/bin\/chromium"/);
    expect(needs).toContain('channel: "chrome"');
  });
});
