import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readGuideHtml } from "./guide-files";
import { GUIDES, guideHtml, guideOf, guidePage } from "./guides";
import { referencePage, CHECKOUT_API_DOCUMENT } from "./reference";

describe("the guides /docs links", () => {
  it.each(GUIDES.map((guide) => [guide.slug, guide] as const))(
    "%s renders from the repository's Markdown, starting at its title",
    async (_, guide) => {
      const html = await readGuideHtml(guide);
      expect(html).toBeDefined();
      expect(html!.trimStart()).toMatch(/^<h1>/);
      expect(html).not.toContain("<script");
    },
  );

  it("takes a section alone, up to the next heading of its level, its headings lifted", async () => {
    const text = "# Doc\n\n## Other\n\nno\n\n## The guide\n\nyes\n\n### Part\n\nmore\n\n## Next\n\nno\n";
    const html = await guideHtml({ slug: "x", title: "x", summary: "x", file: "x.md", section: "The guide" }, text);
    expect(html).toBe("<h1>The guide</h1>\n<p>yes</p>\n<h2>Part</h2>\n<p>more</p>\n");
    expect(await guideHtml({ slug: "x", title: "x", summary: "x", file: "x.md", section: "Gone" }, text)).toBeUndefined();
  });

  it("links another guide to its page, and leaves a link to a file the app does not serve as its text", async () => {
    const text = [
      "# T",
      "",
      "[summary](../partner-api.md#what-the-product-relies-on) [spec](playwright-spec.md) [gone](../staff/README.md)",
      "[here](#t) [site](https://example.com/x) [root](/docs)",
    ].join("\n");
    const html = await guideHtml({ slug: "x", title: "x", summary: "x", file: "docs/qa/README.md" }, text);
    expect(html).toContain('<a href="/docs/guides/partner-api#what-the-product-relies-on">summary</a>');
    expect(html).toContain('<a href="/docs/guides/qa">spec</a>');
    expect(html).toContain(" gone\n");
    expect(html).not.toContain("staff/README.md");
    expect(html).toContain('<a href="#t">here</a> <a href="https://example.com/x">site</a> <a href="/docs">root</a>');
  });

  it("sanitises what the Markdown holds, and is served under the response's nonce only", async () => {
    const html = await guideHtml(
      { slug: "x", title: "x", summary: "x", file: "x.md" },
      '# T\n\n<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">\n',
    );
    expect(html).not.toMatch(/<script|onerror/);
    const page = guidePage({ nonce: "n0nce", guide: guideOf("qa")!, html: html! });
    expect(page).toContain('<style nonce="n0nce">');
    expect(page).not.toContain("<script");
  });

  // The integrators' index is what a reader of the API starts from: what it lists to start with
  // and as reference, /docs links too.
  it("are every page the integrators' index lists under Start here and Reference", () => {
    const index = readFileSync(new URL("../../docs/integrators/README.md", import.meta.url), "utf8");
    const listed = ["## Start here", "## Reference"].flatMap((heading) => {
      const section = index.slice(index.indexOf(heading) + heading.length).split(/\n## /)[0]!;
      return [...section.matchAll(/\]\(([a-z-]+\.md)\)/g)].map((match) => `docs/integrators/${match[1]}`);
    });
    expect(listed.length).toBeGreaterThan(4);
    const served = GUIDES.map((guide) => guide.file);
    for (const file of listed) expect(served, file).toContain(file);
  });

  it("an unknown slug is no guide", () => {
    expect(guideOf("../../etc/passwd")).toBeUndefined();
  });
});

describe("/docs", () => {
  const page = referencePage({ nonce: "n0nce", documents: [CHECKOUT_API_DOCUMENT] });

  it("mounts the reference on an element of its own, never #api-reference (Scalar's bundle mounts an empty one there)", () => {
    expect(page).not.toContain('id="api-reference"');
    expect(page).toContain('<div id="reference"></div>');
    expect(page).toContain('createApiReference("#reference"');
    // The bundle still does: if it stopped, this rule could go.
    const bundle = readFileSync("node_modules/@scalar/api-reference/dist/browser/standalone.js", "utf8");
    expect(bundle).toContain('getElementById("api-reference")');
  });

  it("links every guide", () => {
    for (const guide of GUIDES) expect(page).toContain(`href="/docs/guides/${guide.slug}"`);
  });
});
