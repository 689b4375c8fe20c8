import { html, raw } from "hono/html";
import type { PageLanguage, PageText } from "./text";

/** What `html` returns: escaped markup (a promise only when a child is one, which these pages avoid). */
export type Html = ReturnType<typeof html>;

/*
 * One stylesheet for every hosted page, inline: the pages must work with no other request (QA runs
 * them offline, and a provider page that pulled assets from the app would hide broken links).
 * Colours are picked for at least 4.5:1 contrast on their backgrounds; nothing is fixed-width, so a
 * 360px screen never scrolls sideways; touch targets are 44px or more.
 */
const STYLES = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:#f3f4f6;color:#111827;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
a{color:#1d4ed8}
:focus-visible{outline:3px solid #111827;outline-offset:3px}
.sandbox-bar{background:#fde68a;color:#451a03;border-bottom:2px solid #b45309;padding:.5rem 1rem;font-size:.9375rem}
.sandbox-bar p{max-width:40rem;margin:0 auto}
.badge{display:inline-block;background:#451a03;color:#fff;border-radius:999px;padding:0 .625rem;margin-right:.375rem;font-weight:700;letter-spacing:.02em;text-transform:uppercase;font-size:.8125rem}
.provider-bar{background:#0f3d3e;color:#fff;padding:.75rem 1rem}
.provider-bar p{max-width:40rem;margin:0 auto;font-weight:700;font-size:1.125rem}
.provider-bar small{display:block;font-weight:400;font-size:.875rem;color:#d1fae5}
main{max-width:40rem;margin:0 auto;padding:1rem}
h1{font-size:1.625rem;line-height:1.25;margin:.5rem 0 1rem}
h2{font-size:1.125rem;line-height:1.3;margin:0 0 .5rem}
p{margin:0 0 .75rem}
.card{background:#fff;border:1px solid #d1d5db;border-radius:.75rem;padding:1rem;margin:0 0 1rem}
.card>:last-child{margin-bottom:0}
.wrap{overflow-wrap:anywhere}
.muted{color:#4b5563}
.facts{display:grid;grid-template-columns:minmax(0,1fr) auto;gap:.25rem 1rem;margin:0}
.facts dt{color:#374151}
.facts dd{margin:0;text-align:right;font-weight:600;font-variant-numeric:tabular-nums}
.facts .total{border-top:1px solid #d1d5db;padding-top:.375rem;font-weight:700;color:#111827}
.facts dd.text{text-align:right;overflow-wrap:anywhere;min-width:0}
.facts-text{grid-template-columns:auto minmax(0,1fr)}
.facts+.facts{margin-top:.25rem}
fieldset{border:0;padding:0;margin:0 0 1rem;min-width:0}
legend{padding:0;margin:0 0 .5rem;font-weight:700;font-size:1.125rem}
.offer{background:#fff;border:2px solid #9ca3af;border-radius:.75rem;padding:.75rem 1rem;margin:0 0 .75rem}
.offer:has(input:checked){border-color:#1d4ed8;background:#eff6ff}
.offer-choice{display:flex;gap:.75rem;align-items:flex-start;min-height:44px;padding:.25rem 0 .5rem;cursor:pointer;font-weight:700}
.offer-choice input{flex:none;width:1.375rem;height:1.375rem;margin:.125rem 0 0;accent-color:#1d4ed8}
.offer .facts{font-size:.9375rem;padding-left:2.125rem}
.button{display:flex;align-items:center;justify-content:center;width:100%;min-height:48px;padding:.625rem 1.25rem;border:2px solid #1d4ed8;border-radius:.5rem;font:inherit;font-weight:700;text-align:center;text-decoration:none;cursor:pointer}
.button-primary{background:#1d4ed8;color:#fff}
.button-primary:hover{background:#1e40af;border-color:#1e40af}
.button-secondary{background:#fff;color:#1d4ed8}
.button-secondary:hover{background:#eff6ff}
.actions{display:grid;gap:.75rem;margin:1rem 0 0}
@media (min-width:32rem){.actions-2{grid-template-columns:1fr 1fr}}
.alert{border:1px solid #b91c1c;border-left-width:6px;background:#fef2f2;color:#7f1d1d;border-radius:.5rem;padding:.75rem 1rem;margin:0 0 1rem}
.notice{border:1px solid #1d4ed8;border-left-width:6px;background:#eff6ff;color:#1e3a8a;border-radius:.5rem;padding:.75rem 1rem;margin:0 0 1rem}
.outcome{border-left-width:6px}
.outcome-success{border-color:#15803d;background:#f0fdf4}
.outcome-failure{border-color:#b91c1c;background:#fef2f2}
.outcome-info{border-color:#1d4ed8;background:#eff6ff}
.status{display:inline-block;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.875rem;background:#e5e7eb;color:#111827;border-radius:.25rem;padding:0 .375rem}
table{width:100%;border-collapse:collapse;font-variant-numeric:tabular-nums}
caption{text-align:left;font-weight:700;font-size:1.125rem;margin-bottom:.5rem}
th,td{padding:.5rem .25rem;border-bottom:1px solid #e5e7eb;text-align:left;vertical-align:top}
thead th{color:#374151;font-size:.875rem}
.num{text-align:right}
tr.differs{background:#fef3c7}
.tag{display:inline-block;background:#92400e;color:#fff;border-radius:.25rem;padding:0 .375rem;font-size:.75rem;font-weight:700;margin-left:.25rem}
.small{font-size:.875rem}
.sandbox-bar .language{float:right;margin-left:1rem}
.sandbox-bar .language a{color:#451a03;font-weight:700;display:inline-block;min-height:24px}
`;

/*
 * The browser asks for /favicon.ico unless the page names an icon: the app has none there and the
 * sandbox run alone has no such route (a 404 in every console). An inline icon asks for nothing.
 */
const FAVICON = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#451a03"/><text x="16" y="23" font-family="sans-serif" font-size="20" font-weight="700" text-anchor="middle" fill="#fde68a">S</text></svg>',
)}`;

/** What every page needs to speak the customer's language: its texts and the link to the other one. */
export interface PageLocale {
  lang: PageLanguage;
  t: PageText;
  /** The same page in the other language. */
  other: { lang: PageLanguage; name: string; href: string };
}

export interface DocumentOptions {
  locale: PageLocale;
  title: string;
  body: Html;
  /** A bar under the sandbox badge: the provider checkout shows whose page it plays. */
  providerName?: string;
}

/** A whole page: the sandbox badge first, so nobody mistakes it for a real provider or shop. */
export function documentPage({ locale, title, body, providerName }: DocumentOptions): Html {
  const { lang, t, other } = locale;
  return html`<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="color-scheme" content="light">
<title>${title} · ${t.layout.titleSuffix}</title>
<link rel="icon" href="${FAVICON}">
<style>${raw(STYLES)}</style>
</head>
<body>
<div class="sandbox-bar" role="note" aria-label="${t.layout.sandboxLabel}">
<p><span class="language"><a href="${other.href}" lang="${other.lang}" hreflang="${other.lang}">${other.name}</a></span><span class="badge">${t.layout.sandboxLabel}</span> ${t.layout.sandboxNotice}</p>
</div>
${
  providerName === undefined
    ? ""
    : html`<header class="provider-bar"><p>${providerName}<small>${t.layout.providerSubtitle}</small></p></header>`
}
<main>
${body}
</main>
</body>
</html>`;
}
