import type { Locator } from "@playwright/test";

/**
 * The fonts Chromium actually drew an element's text with (DevTools' CSS.getPlatformFontsForNode),
 * for screenshot comparisons: the app ships no web font (its stack starts at `system-ui`), so a
 * baseline holds for a machine with the same system fonts, and a test says so before it compares.
 */
export async function renderedFonts(locator: Locator): Promise<string[]> {
  const page = locator.page();
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send("DOM.enable");
    await cdp.send("CSS.enable");
    // A marker attribute finds the element in DevTools' DOM: the locator's own selector may not be CSS.
    const marker = `font-probe-${Math.random().toString(36).slice(2)}`;
    await locator.evaluate((element, name) => element.setAttribute("data-font-probe", name), marker);
    const { root } = await cdp.send("DOM.getDocument", { depth: -1 });
    const { nodeIds } = await cdp.send("DOM.querySelectorAll", {
      nodeId: root.nodeId,
      selector: `[data-font-probe="${marker}"], [data-font-probe="${marker}"] *`,
    });
    const families = new Set<string>();
    for (const nodeId of nodeIds) {
      const { fonts } = await cdp.send("CSS.getPlatformFontsForNode", { nodeId });
      for (const font of fonts) families.add(font.familyName);
    }
    await locator.evaluate((element) => element.removeAttribute("data-font-probe"));
    return [...families].sort();
  } finally {
    await cdp.detach();
  }
}
