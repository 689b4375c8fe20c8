import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect, type Page } from "@playwright/test";

/*
 * A second accessibility checker, independent of axe: HTML_CodeSniffer, in the build pa11y itself
 * runs (@pa11y/html_codesniffer), run the way pa11y's HTML_CodeSniffer runner runs it
 * (`HTMLCS.process("WCAG2AA", document, …)`, errors only, as pa11y reports by default), but in the
 * page Playwright already has open on the system Chromium: no puppeteer, no browser download, no
 * install script, and the page in the very state the test put it in (errors shown, a language chosen).
 * Injected through DevTools like axe, so the pages' Content-Security-Policy does not stop it.
 */

const HTMLCS_SOURCE = readFileSync(createRequire(import.meta.url).resolve("@pa11y/html_codesniffer/build/HTMLCS.js"), "utf8");

/** WCAG 2 AA, pa11y's default standard. */
const STANDARD = "WCAG2AA";

export interface HtmlcsIssue {
  code: string;
  message: string;
  element: string;
}

/** HTML_CodeSniffer's errors on the page as it is now (warnings and notices left out, as pa11y does by default). */
export async function htmlcsErrors(page: Page): Promise<HtmlcsIssue[]> {
  await page.evaluate(HTMLCS_SOURCE);
  return page.evaluate(
    (standard) =>
      new Promise<HtmlcsIssue[]>((resolve, reject) => {
        type Message = { code: string; msg: string; type: number; element: Element | Document };
        const htmlcs = (
          window as unknown as {
            HTMLCS: { process(s: string, d: Document, done: () => void, failed: () => void): void; getMessages(): Message[] };
          }
        ).HTMLCS;
        const ERROR = 1;
        const describe = (element: Element | Document) =>
          element instanceof Element ? element.outerHTML.replace(/\s+/g, " ").slice(0, 200) : "(the document)";
        htmlcs.process(
          standard,
          window.document,
          () =>
            resolve(
              htmlcs
                .getMessages()
                .filter((message) => message.type === ERROR)
                .map((message) => ({ code: message.code, message: message.msg, element: describe(message.element) })),
            ),
          () => reject(new Error("HTML_CodeSniffer could not run")),
        );
      }),
    STANDARD,
  );
}

/** Runs HTML_CodeSniffer on the page as it is now and expects no error; the failure names each code and element. */
export async function expectNoHtmlcsErrors(page: Page, what: string): Promise<void> {
  expect(await htmlcsErrors(page), `HTML_CodeSniffer (WCAG2AA) errors on ${what} (${page.url()})`).toEqual([]);
}
