import { describe, expect, it } from "vitest";
import { chromiumCandidates, findChromium, INSTALL_HINT, isHeadlessShell, LAUNCH_ARGS } from "./chromium.mjs";

/** An `exists` that only knows the given files and records what it was asked, in order. */
function fakeFs(...present: string[]) {
  const asked: string[] = [];
  const exists = (file: string) => {
    asked.push(file);
    return present.includes(file);
  };
  return { asked, exists };
}

const PATH = "/usr/local/bin:/usr/bin:/snap/bin";

describe("findChromium", () => {
  it("prefers /usr/bin/chromium (Debian's package) over everything else found by search", () => {
    const fs = fakeFs("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/local/bin/chromium");
    expect(findChromium({ PATH }, fs.exists)).toMatchObject({ path: "/usr/bin/chromium", source: "search" });
    expect(fs.asked).toEqual(["/usr/bin/chromium"]);
  });

  it("falls back to /usr/bin/chromium-browser, then to PATH, chromium before chromium-browser", () => {
    expect(findChromium({ PATH }, fakeFs("/usr/bin/chromium-browser", "/usr/local/bin/chromium").exists).path).toBe(
      "/usr/bin/chromium-browser",
    );
    expect(findChromium({ PATH }, fakeFs("/snap/bin/chromium", "/usr/local/bin/chromium-browser").exists).path).toBe("/snap/bin/chromium");
    expect(findChromium({ PATH }, fakeFs("/usr/local/bin/chromium-browser").exists).path).toBe("/usr/local/bin/chromium-browser");
  });

  it("tries the candidates in a stable order without duplicates, ignoring relative PATH entries", () => {
    expect(chromiumCandidates({ PATH: "/usr/bin:bin::/opt/x" })).toEqual([
      "/usr/bin/chromium",
      "/usr/bin/chromium-browser",
      "/opt/x/chromium",
      "/opt/x/chromium-browser",
    ]);
    expect(chromiumCandidates({})).toEqual(["/usr/bin/chromium", "/usr/bin/chromium-browser"]);
  });

  it("for the browser tests, prefers the headless shell (on its fixed path, then on PATH) and falls back to a full Chromium", () => {
    const shell = { headlessShell: true };
    const both = fakeFs("/usr/bin/chromium", "/usr/bin/chromium-headless-shell");
    expect(findChromium({ PATH }, both.exists, shell).path).toBe("/usr/bin/chromium-headless-shell");
    expect(findChromium({ PATH }, fakeFs("/usr/bin/chromium", "/snap/bin/chromium-headless-shell").exists, shell).path).toBe(
      "/snap/bin/chromium-headless-shell",
    );
    expect(findChromium({ PATH }, fakeFs("/usr/bin/chromium").exists, shell).path).toBe("/usr/bin/chromium");
    // Lighthouse and headed runs need the full browser: without the option the shell is never picked.
    expect(findChromium({ PATH }, fakeFs("/usr/bin/chromium-headless-shell").exists).path).toBeNull();
    expect(chromiumCandidates({ PATH: "/opt/x" }, shell)).toEqual([
      "/usr/bin/chromium-headless-shell",
      "/opt/x/chromium-headless-shell",
      "/usr/bin/chromium",
      "/usr/bin/chromium-browser",
      "/opt/x/chromium",
      "/opt/x/chromium-browser",
    ]);
    expect(isHeadlessShell("/usr/bin/chromium-headless-shell")).toBe(true);
    expect(isHeadlessShell("/usr/bin/chromium")).toBe(false);
  });

  it("uses CHROMIUM_PATH when set and looks nowhere else", () => {
    const fs = fakeFs("/opt/chrome/chrome", "/usr/bin/chromium");
    expect(findChromium({ PATH, CHROMIUM_PATH: "/opt/chrome/chrome" }, fs.exists)).toEqual({
      path: "/opt/chrome/chrome",
      source: "CHROMIUM_PATH",
      tried: ["/opt/chrome/chrome"],
    });
    expect(fs.asked).toEqual(["/opt/chrome/chrome"]);
  });

  it("reports a CHROMIUM_PATH that does not exist instead of silently using another browser", () => {
    const result = findChromium({ PATH, CHROMIUM_PATH: "/nope/chrome" }, fakeFs("/usr/bin/chromium").exists);
    expect(result.path).toBeNull();
    expect(result).toMatchObject({ error: expect.stringContaining("CHROMIUM_PATH") });
    expect(result).toMatchObject({ error: expect.stringContaining("/nope/chrome") });
  });

  it("treats a blank CHROMIUM_PATH as unset", () => {
    expect(findChromium({ PATH, CHROMIUM_PATH: "  " }, fakeFs("/usr/bin/chromium").exists).path).toBe("/usr/bin/chromium");
  });

  it("says where it looked when nothing is found", () => {
    const fs = fakeFs();
    const result = findChromium({ PATH: "/usr/bin:/opt/bin" }, fs.exists);
    expect(result.path).toBeNull();
    expect(result.tried).toEqual(fs.asked);
    expect(result.tried).toContain("/opt/bin/chromium-browser");
    expect(result).toMatchObject({ error: expect.stringMatching(/\/usr\/bin\/chromium\b.*PATH/) });
  });

  it("has an install hint naming the package and the override", () => {
    expect(INSTALL_HINT).toContain("apt-get install chromium");
    expect(INSTALL_HINT).toContain("CHROMIUM_PATH");
  });
});

describe("LAUNCH_ARGS", () => {
  it("starts every Chromium (Playwright's, the bench's Lighthouse) without a sandbox, a GPU or traffic of its own", () => {
    // This machine's network is closed: Chromium's updates, sync and field-trial requests are
    // refused many times a second, on the CPU the tests and measures share.
    for (const flag of [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ]) {
      expect(LAUNCH_ARGS).toContain(flag);
    }
  });
});
