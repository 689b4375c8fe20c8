import type { Heading, Nodes, Root, RootContent } from "mdast";
import { remark } from "remark";
import remarkGfm from "remark-gfm";
import remarkHtml from "remark-html";
import { escapeHtml } from "@/lib/text/escape-html";

/**
 * The guides /docs links, served by this app as pages (/docs/guides/{slug}) from the repository's
 * own Markdown: whoever reads the API reference on a deployment reaches them there, with no access
 * to the repository needed, and the page is always the text of the version it runs. The files are
 * read by ./guide-files.ts; here, pure: the list, the rendering by remark (sanitised HTML) and the
 * page, whose one stylesheet carries the response's nonce.
 */

export interface Guide {
  slug: string;
  title: string;
  /** A line for the link on /docs. */
  summary: string;
  /** The Markdown file, from the repository's root. */
  file: string;
  /** The heading of the section of `file` that is the guide; undefined: the whole file. */
  section?: string;
}

export const GUIDES: readonly Guide[] = [
  {
    slug: "tutorial",
    title: "Tutorial: from zero to a verified notification",
    summary: "open a session with curl, pay it as the customer on the sandbox, verify the notification of the outcome",
    file: "docs/integrators/tutorial.md",
  },
  {
    slug: "api-reference",
    title: "The checkout sessions API: states, errors, limits, a typed client",
    summary: "opening and reading a session, its states, the error codes, the limits, a typed client",
    file: "docs/integrators/api-reference.md",
  },
  {
    slug: "partner-api",
    title: "The financing partner API, as this product uses it",
    summary: "what the checkout relies on in the financing API, and what it assumes where the API says nothing",
    file: "docs/partner-api.md",
  },
  {
    slug: "sessions-api",
    title: "Listing, cancelling and refunding checkout sessions",
    summary: "the checkout sessions API's list of your sessions, its cancel before the customer signs and its refund once confirmed",
    file: "docs/integrators/checkout-sessions-api.md",
  },
  {
    slug: "idempotency-and-versions",
    title: "Retrying safely and pinning a version",
    summary: "Idempotency-Key on every POST, and Checkout-Api-Version on every call",
    file: "docs/integrators/idempotency-and-versions.md",
  },
  {
    slug: "events",
    title: "Events: the feed of what happened to your sessions",
    summary: "GET /api/events, to catch up on the notifications you missed, in order",
    file: "docs/integrators/events.md",
  },
  {
    slug: "notifications",
    title: "Notifications: reference and verification",
    summary: "the events and their payloads, delivery and retries, verifying the signature",
    file: "docs/integrators/notifications.md",
  },
  {
    slug: "qa",
    title: "QA guide: a Playwright spec to copy",
    summary: "a whole checkout tested against a deployment on the sandbox",
    file: "docs/qa/playwright-spec.md",
  },
];

export function guideOf(slug: string): Guide | undefined {
  return GUIDES.find((guide) => guide.slug === slug);
}

const textOf = (node: Nodes): string => ("value" in node ? node.value : "children" in node ? node.children.map(textOf).join("") : "");

/** The section under `title` (to the next heading of its level or above), its headings lifted so it starts at h1. */
function sectionOf(root: Root, title: string): Root | undefined {
  const start = root.children.findIndex((node) => node.type === "heading" && textOf(node) === title);
  if (start === -1) return undefined;
  const depth = (root.children[start] as Heading).depth;
  const end = root.children.findIndex((node, index) => index > start && node.type === "heading" && node.depth <= depth);
  const children: RootContent[] = root.children.slice(start, end === -1 ? undefined : end);
  for (const node of children) {
    if (node.type === "heading") node.depth = Math.max(1, node.depth - depth + 1) as Heading["depth"];
  }
  return { type: "root", children };
}

/** `../qa/README.md` from `docs/integrators/payment-links.md` → `docs/qa/README.md`; undefined above the root. */
function fromRoot(file: string, relative: string): string | undefined {
  const segments = file.split("/").slice(0, -1);
  for (const segment of relative.split("/")) {
    if (segment === "..") {
      if (segments.pop() === undefined) return undefined;
    } else if (segment !== "." && segment !== "") segments.push(segment);
  }
  return segments.join("/");
}

/**
 * The guide's links as a deployment can follow them: a link to another guide's file goes to that
 * guide's page; a link to any other file of the repository, which the app does not serve, is left
 * as its text. Links to other sites and to anchors of the page itself are kept.
 */
function servedLinks(node: Nodes, guide: Guide): void {
  if (!("children" in node)) return;
  node.children = node.children.flatMap((child): RootContent[] => {
    servedLinks(child, guide);
    if (child.type !== "link" || /^([a-z][a-z\d+.-]*:|#|\/)/i.test(child.url)) return [child];
    const [target = "", anchor] = child.url.split("#", 2);
    const file = fromRoot(guide.file, decodeURI(target));
    const linked = GUIDES.find((other) => other.file === file && other.section === undefined);
    if (!linked) return child.children;
    child.url = `/docs/guides/${linked.slug}${anchor === undefined ? "" : `#${anchor}`}`;
    return [child];
  }) as typeof node.children;
}

/** The guide from its file's Markdown, as sanitised HTML; undefined when its section is not there. */
export async function guideHtml(guide: Guide, text: string): Promise<string | undefined> {
  const processor = remark().use(remarkGfm).use(remarkHtml);
  const tree = processor.parse(text);
  const part = guide.section === undefined ? tree : sectionOf(tree, guide.section);
  if (!part) return undefined;
  servedLinks(part, guide);
  // run() gives back the tree it was given, transformed: still a Markdown root.
  return processor.stringify((await processor.run(part)) as Root);
}

const STYLE = `body { margin: 0; font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1b1b1b; }
main { max-width: 52rem; margin: 0 auto; padding: 1rem 1.25rem 4rem; }
nav { border-bottom: 1px solid #e3e3e3; padding: 0.6rem 1.25rem; font-size: 0.95rem; }
a { color: #0b57d0; }
pre { background: #f6f6f6; padding: 0.9rem; overflow-x: auto; border-radius: 6px; font-size: 0.85rem; line-height: 1.45; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
table { border-collapse: collapse; } th, td { border: 1px solid #ddd; padding: 0.3rem 0.6rem; text-align: left; }`;

/** The links to the guides, as /docs shows them above the reference. */
export function guideLinks(): string {
  return GUIDES.map(
    (guide) => `<a href="/docs/guides/${escapeHtml(guide.slug)}" title="${escapeHtml(guide.summary)}">${escapeHtml(guide.title)}</a>`,
  ).join(" · ");
}

export function guidePage({ nonce, guide, html }: { nonce: string; guide: Guide; html: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(guide.title)}</title>
<link rel="icon" href="/favicon.svg">
<style nonce="${escapeHtml(nonce)}">${STYLE}</style>
</head>
<body>
<nav aria-label="Documentation"><a href="/docs">API reference</a> · ${guideLinks()}</nav>
<main>
${html}
</main>
</body>
</html>
`;
}
