import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { docBlocks, filesOf, stepsOf } from "../scripts/docs/doc-commands";
import { expect, test } from "./fixtures";
import { APP_URL, STAFF } from "./support/app";
import { aCustomer } from "./support/test-data";

/*
 * The integrators' tutorial (docs/integrators/tutorial.md), followed as a reader follows it: its
 * commands are read from the page and run as written, in bash, in a folder of their own; the
 * steps it gives in words (the back-office, paying as the customer) are done in the browser. So a
 * command that no longer works, or a step that no longer leads where the page says, fails here.
 *
 * What the test changes in the commands, and why: the app's address (the reader's is
 * http://localhost:3000, the suite's app is on E2E_PORT), the signing secret the reader pastes
 * (the one the back-office showed), and the receiver's port (a free one, through its PORT).
 * It does not run the two commands that install and start: the suite has built and started the
 * app, and the receiver's one package is the project's own dependency (its folder is under the
 * project, so Node finds it there). scripts/docs/doc-commands.test.ts checks which blocks are run.
 *
 * The tutorial points the demo partner's notifications at the reader's endpoint; the test puts
 * them back on the demo shop's endpoint at the end, as the tutorial's last section says, since the
 * other specs read what that endpoint received.
 */

const TUTORIAL = "docs/integrators/tutorial.md";

test.use({ baseURL: APP_URL, locale: "en-GB" });

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A block's command, as the reader would type it, on this app and with what they would paste. */
function asTyped(command: string, pasted: Record<string, string>): string {
  let typed = command.replaceAll("http://localhost:3000", APP_URL);
  for (const [placeholder, value] of Object.entries(pasted)) typed = typed.replaceAll(placeholder, value);
  return typed;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `detached`: a process group of its own, so stopping a server stops what bash started too. */
function bash(command: string, cwd: string, env: Record<string, string> = {}): ChildProcess {
  return spawn("bash", ["-euo", "pipefail", "-c", command], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
}

function finished(child: ChildProcess): Promise<Run> {
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

test("the integrators' tutorial: its commands run as written, and the notification of the outcome is verified", async ({
  page,
  admin,
  checkout,
}, testInfo) => {
  test.setTimeout(240_000);
  const blocks = docBlocks(readFileSync(TUTORIAL, "utf8"));
  const steps = stepsOf(blocks);
  const folder = testInfo.outputPath("reader");
  mkdirSync(folder, { recursive: true });
  for (const [name, content] of filesOf(blocks)) writeFileSync(`${folder}/${name}`, `${content}\n`);

  const pasted: Record<string, string> = {};
  const run = async (step: string): Promise<string> => {
    const block = steps.get(step);
    expect(block, `${TUTORIAL} has a block with step=${step}`).toBeDefined();
    const result = await finished(bash(asTyped(block!.value, pasted), folder));
    expect(result.code, `${TUTORIAL}:${block!.line} (step=${step}) failed:\n${result.stderr}${result.stdout}`).toBe(0);
    return result.stdout;
  };

  let receiver: ChildProcess | undefined;
  let received = "";
  let urlChanged = false;
  const receiverPort = await freePort();
  try {
    // 3. Sign in: the command prints the current code of the published demo TOTP secret.
    expect((await run("totp")).trim()).toMatch(/^\d{6}$/);
    await admin.signIn(STAFF.aurora);
    await admin.shell.section("notifications").click();
    await expect(admin.notifications.heading).toBeVisible();
    await admin.notifications.setUrl(`http://localhost:${receiverPort}/notifications`);
    await expect(admin.notifications.urlSaved).toBeVisible();
    urlChanged = true;
    pasted["whsec_…"] = await admin.notifications.rotate();

    const block = steps.get("receiver")!;
    receiver = bash(asTyped(block.value, pasted), folder, { PORT: String(receiverPort) });
    receiver.stdout!.on("data", (chunk: Buffer) => (received += chunk.toString()));
    receiver.stderr!.on("data", (chunk: Buffer) => (received += chunk.toString()));
    await expect.poll(() => received, { message: `the receiver (${TUTORIAL}:${block.line}) starts` }).toContain("listening on port");

    await admin.notifications.sendTest();
    await expect(admin.notifications.testOk(204)).toBeVisible();
    await expect.poll(() => received).toContain("verified notification.test");

    // 4. Open a session.
    const opened = JSON.parse(await run("open-session")) as { id: string; url: string; state: string };
    expect(opened).toMatchObject({ id: expect.stringMatching(/^cs_/), state: "open" });
    expect(JSON.parse(readFileSync(`${folder}/session.json`, "utf8"))).toEqual(opened);

    // 5. Send the customer: the URL the command prints, and the customer pays at the sandbox's provider.
    const url = (await run("session-url")).trim();
    expect(url).toBe(opened.url);
    await page.goto(url);
    await expect(checkout.details.heading).toBeVisible();
    await checkout.details.fill(aCustomer());
    await checkout.details.submit();
    await checkout.offers.chooseButtons.first().click();
    await checkout.provider.sign();
    await checkout.status.expectState("confirmed");

    // 6. The receiver verified each state's notification, ending with the outcome; the session says confirmed.
    await expect.poll(() => received, { timeout: 30_000 }).toContain(`verified checkout.session.confirmed ${opened.id} confirmed`);
    expect(received).toContain(`verified checkout.session.choosing ${opened.id} choosing`);
    expect(received).not.toContain("refused:");
    expect(JSON.parse(await run("read-session"))).toMatchObject({ id: opened.id, state: "confirmed", final: true });
  } finally {
    if (receiver?.pid !== undefined && receiver.exitCode === null) process.kill(-receiver.pid, "SIGTERM");
    if (urlChanged) {
      // "To put the demo back as it was, set the notification URL to …/api/demo/notifications again."
      await admin.notifications.goto();
      await admin.notifications.setUrl(`${APP_URL}/api/demo/notifications`);
      await expect(admin.notifications.urlSaved).toBeVisible();
    }
    await testInfo.attach("receiver output", { body: received, contentType: "text/plain" });
  }
});
