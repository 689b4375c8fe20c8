/**
 * The API reference page (/docs): which documents it shows, and its HTML. Pure: the route handler
 * and the tests share it.
 *
 * Scalar renders the documents in the browser. The page's policy (lib/security/headers/csp.ts) allows
 * scripts and <style> elements only with the response's nonce: the first script gives every
 * <style> element created on the page that nonce before Scalar (which writes its styles into
 * <style> elements) loads. Nothing is fetched from elsewhere: no web fonts (the system's), no
 * request proxy, no telemetry, no AI agent (it calls Scalar's servers).
 *
 * Scalar is mounted on `#reference`, never on `#api-reference`: its browser bundle mounts a second,
 * unconfigured reference of its own on an element with that id (its HTML integration), which showed
 * as an empty loading skeleton a screen tall above ours.
 */
import { escapeHtml } from "@/lib/text/escape-html";
import { guideLinks } from "./guides";

export interface ReferenceDocument {
  title: string;
  /** Scalar puts it in the page's URL (`?api=…`) to switch documents. */
  slug: string;
  url: string;
}

export const CHECKOUT_API_DOCUMENT: ReferenceDocument = {
  title: "Checkout sessions API",
  slug: "checkout-sessions",
  url: "/api/openapi.json",
};

export const SANDBOX_API_DOCUMENT: ReferenceDocument = {
  title: "Partner API sandbox",
  slug: "partner-api-sandbox",
  url: "/sandbox/v1/openapi.json",
};

/** System fonts instead of Scalar's (fetched from its servers). */
const CUSTOM_CSS = `:root, .light-mode, .dark-mode {
  --scalar-font: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  --scalar-font-code: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
}`;

/** Scalar's configuration. */
export function referenceConfiguration(documents: readonly ReferenceDocument[]) {
  return {
    sources: documents.map((document, index) => ({ ...document, default: index === 0, agent: { disabled: true } })),
    withDefaultFonts: false,
    customCss: CUSTOM_CSS,
    telemetry: false,
    // Shown on localhost by default: the tools to configure Scalar itself, not ours to offer.
    showDeveloperTools: "never",
    agent: { disabled: true },
  };
}

/** The bar above the reference: the guides, served by this app (lib/docs/guides.ts). */
const GUIDES_BAR_STYLE = `#guides { font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; padding: 0.45rem 1rem; border-bottom: 1px solid #e3e3e3; }
#guides a { color: #0b57d0; }`;

/** Gives each <style> element created from now on the nonce of the script that runs this. */
const STYLE_NONCE_SCRIPT = `(function () {
  var nonce = document.currentScript && document.currentScript.nonce;
  if (!nonce) return;
  var create = document.createElement;
  document.createElement = function (tagName) {
    var element = create.apply(this, arguments);
    if (String(tagName).toLowerCase() === "style") element.setAttribute("nonce", nonce);
    return element;
  };
})();`;

/** JSON that cannot end the <script> element it is written into. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replaceAll("<", "\\u003c");
}

export function referencePage({ nonce, documents }: { nonce: string; documents: readonly ReferenceDocument[] }): string {
  const n = escapeHtml(nonce);
  const links = documents
    .map((document) => `<li><a href="${escapeHtml(document.url)}">${escapeHtml(document.title)} (OpenAPI JSON)</a></li>`)
    .join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title>
<link rel="icon" href="/favicon.svg">
<script nonce="${n}">${STYLE_NONCE_SCRIPT}</script>
<style nonce="${n}">${GUIDES_BAR_STYLE}</style>
</head>
<body>
<noscript>
<main>
<h1>API reference</h1>
<p>The reference needs JavaScript. The OpenAPI documents:</p>
<ul>${links}</ul>
</main>
</noscript>
<nav id="guides" aria-label="Guides">Guides: ${guideLinks()}</nav>
<div id="reference"></div>
<script nonce="${n}" src="/docs/scalar.js"></script>
<script nonce="${n}">window.Scalar.createApiReference("#reference", ${jsonForScript(referenceConfiguration(documents))});</script>
</body>
</html>
`;
}

const SCALAR_FONT = /url\(https:\/\/fonts\.scalar\.com\/[\w.-]+\)\s*format\("woff2"\)/g;

/** Scalar's bundle with its fonts declared as local ones instead of fetched from fonts.scalar.com. */
export function withoutRemoteFonts(source: string): string {
  return source.replace(SCALAR_FONT, 'local("Inter")');
}
