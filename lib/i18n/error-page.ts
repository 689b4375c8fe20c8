import type { Locale } from "@/lib/i18n/locales";
import { MESSAGES } from "@/lib/i18n/messages";
import { escapeHtml } from "@/lib/text/escape-html";

/**
 * The page the server answers itself when a page fails (lib/ops/error-pages.ts, through lib/embed/error-page.ts): the message and
 * a way back in the HTML itself, readable without JavaScript (Next's own error pages render only
 * once its JavaScript runs). No script, no inline style: the app's own stylesheets (the ones the
 * failed page linked) under the page's Content-Security-Policy.
 *
 * Pure (no `server-only`): a string from its inputs.
 */

export type ErrorPageKind = "unavailable" | "error";

export interface ErrorPageOptions {
  kind: ErrorPageKind;
  locale: Locale;
  /** Where "try again" goes: the page that failed (path and query). */
  retryHref: string;
  /** The app's stylesheets, as the failed page linked them (`/_next/static/…css`). */
  stylesheets?: readonly string[];
  /** The request's id, for the customer to quote to support. */
  requestId?: string;
  /** With tracing on, the request's trace id, quoted beside it: support finds the trace by it. */
  traceId?: string;
}

/** Only our own build's stylesheets are linked (a path under /_next/static/, ending in .css). */
export function isOwnStylesheet(href: string): boolean {
  return /^\/_next\/static\/[\w./-]+\.css$/.test(href) && !href.includes("..");
}

/** A same-origin path (never `//host` or a scheme): where "try again" may point. */
function safePath(href: string): string {
  return href.startsWith("/") && !href.startsWith("//") && !href.startsWith("/\\") ? href : "/";
}

function traceCode(traceId: string | undefined): string {
  return traceId && /^[0-9a-f]{32}$/.test(traceId) ? ` <code>${traceId}</code>` : "";
}

export function errorPageHtml(options: ErrorPageOptions): string {
  const m = MESSAGES[options.locale];
  const t = m.errorPage;
  const title = options.kind === "unavailable" ? t.unavailableTitle : t.errorTitle;
  const body = options.kind === "unavailable" ? t.unavailableBody : t.errorBody;
  const links = (options.stylesheets ?? [])
    .filter(isOwnStylesheet)
    .map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`)
    .join("");
  const reference =
    options.requestId && /^[\w-]{1,64}$/.test(options.requestId)
      ? `<p class="text-sm text-muted">${escapeHtml(t.reference)} <code>${escapeHtml(options.requestId)}</code>${traceCode(options.traceId)}</p>`
      : "";
  return [
    "<!DOCTYPE html>",
    `<html lang="${options.locale}">`,
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex, nofollow">',
    `<title>${escapeHtml(`${title} · ${m.meta.appName}`)}</title>`,
    '<link rel="icon" href="/favicon.svg">',
    links,
    "</head>",
    '<body class="min-h-dvh font-sans antialiased">',
    '<header class="border-b border-divider bg-surface">',
    `<p class="mx-auto max-w-2xl px-4 py-3 font-bold text-brand">${escapeHtml(m.meta.appName)}</p>`,
    "</header>",
    '<main id="main" class="mx-auto flex max-w-2xl flex-col gap-4 px-4 py-10 sm:py-16">',
    `<h1 class="text-3xl font-bold">${escapeHtml(title)}</h1>`,
    `<p class="text-lg">${escapeHtml(body)}</p>`,
    '<p class="flex flex-wrap gap-3">',
    `<a class="${BUTTON}" href="${escapeHtml(safePath(options.retryHref))}">${escapeHtml(t.retry)}</a>`,
    `<a class="${LINK}" href="/">${escapeHtml(t.home)}</a>`,
    "</p>",
    reference,
    "</main>",
    "</body>",
    "</html>",
  ].join("\n");
}

// The look of components/ui/button.tsx's buttonClass (primary, secondary), so the page looks like the app's.
const BUTTON_BASE =
  "inline-flex min-h-11 items-center justify-center text-center font-semibold no-underline rounded-lg px-5 py-2 text-base";
const BUTTON = `${BUTTON_BASE} bg-brand text-brand-contrast hover:bg-brand-strong`;
const LINK = `${BUTTON_BASE} border-2 border-brand bg-surface text-brand hover:bg-brand-soft`;
