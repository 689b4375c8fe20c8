import type { Locale } from "@/lib/i18n/locales";
import { escapeHtml as e } from "@/lib/text/escape-html";

/**
 * The one layout of the e-mails that carry a link (the payment link, a staff member's one-time
 * link): the same blocks as plain text and as HTML, so the two parts never say different things.
 * Pure; every text is escaped here, so a caller passes plain text only.
 */

type LinkEmailBlock =
  /** A paragraph. */
  | { text: string }
  /** Labelled values (the trip, the amount). */
  | { rows: [label: string, value: string][] }
  /** The link: an optional line before it, its button, and the address itself to copy. */
  | { link: string; button: string; lead?: string }
  /** The closing "not expecting this?" line, in a quieter colour. */
  | { note: string };

/** The button's colour: the platform's blue for a customer, neutral for staff. */
const BUTTON = {
  customer: "padding:12px 20px;background:#0b5cad",
  staff: "padding:10px 16px;background:#1a1a1a",
} as const;

/** What every link e-mail says, in its order; `rows` and `lead` where it has them. */
export interface LinkEmailParts {
  locale: Locale;
  subject: string;
  audience: keyof typeof BUTTON;
  greeting: string;
  intro: string;
  /** Labelled values (the trip, the amount). */
  rows?: [label: string, value: string][];
  /** The line just before the link. */
  lead?: string;
  link: string;
  button: string;
  expires: string;
  notYou: string;
}

export function linkEmail(parts: LinkEmailParts): { subject: string; text: string; html: string } {
  const blocks: LinkEmailBlock[] = [
    { text: parts.greeting },
    { text: parts.intro },
    ...(parts.rows ? [{ rows: parts.rows }] : []),
    { lead: parts.lead, link: parts.link, button: parts.button },
    { text: parts.expires },
    { note: parts.notYou },
  ];
  const text = blocks.map(blockText).join("\n\n");
  const html = `<!doctype html>
<html lang="${parts.locale}"><head><meta charset="utf-8"><title>${e(parts.subject)}</title></head>
<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1a1a1a">
${blocks.map((block) => blockHtml(block, BUTTON[parts.audience])).join("\n")}
</body></html>
`;
  return { subject: parts.subject, text, html };
}

/** One language's part of a notice: what happened, what it is now, and "not expecting this?". */
export interface NoticeSection {
  locale: Locale;
  greeting: string;
  intro: string;
  rows?: [label: string, value: string][];
  notYou: string;
}

/**
 * An e-mail that tells, with no link: one section per language, in the same blocks as a link
 * e-mail (plain text and HTML saying the same).
 */
export function noticeEmail(parts: { subject: string; sections: NoticeSection[] }): { subject: string; text: string; html: string } {
  const blocksOf = (section: NoticeSection): LinkEmailBlock[] => [
    { text: section.greeting },
    { text: section.intro },
    ...(section.rows?.length ? [{ rows: section.rows }] : []),
    { note: section.notYou },
  ];
  const text = parts.sections.map((section) => blocksOf(section).map(blockText).join("\n\n")).join("\n\n---\n\n");
  const html = `<!doctype html>
<html lang="${parts.sections[0]?.locale ?? "es"}"><head><meta charset="utf-8"><title>${e(parts.subject)}</title></head>
<body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1a1a1a">
${parts.sections
  .map(
    (section) =>
      `<div lang="${section.locale}">\n${blocksOf(section)
        .map((block) => blockHtml(block, BUTTON.staff))
        .join("\n")}\n</div>`,
  )
  .join("\n<hr>\n")}
</body></html>
`;
  return { subject: parts.subject, text, html };
}

function blockText(block: LinkEmailBlock): string {
  if ("rows" in block) return block.rows.map(([label, value]) => `${label}: ${value}`).join("\n");
  if ("link" in block) return block.lead ? `${block.lead}\n${block.link}` : block.link;
  return "note" in block ? block.note : block.text;
}

function blockHtml(block: LinkEmailBlock, button: string): string {
  if ("rows" in block) {
    const rows = block.rows.map(
      ([label, value]) => `<tr><th scope="row" style="text-align:left;padding-right:1em">${e(label)}</th><td>${e(value)}</td></tr>`,
    );
    return ['<table role="presentation" style="border-collapse:collapse">', ...rows, "</table>"].join("\n");
  }
  if ("link" in block) {
    return [
      ...(block.lead ? [`<p>${e(block.lead)}</p>`] : []),
      `<p><a href="${e(block.link)}" style="display:inline-block;${button};color:#ffffff;text-decoration:none;border-radius:6px">${e(block.button)}</a></p>`,
      `<p style="word-break:break-all;font-size:14px">${e(block.link)}</p>`,
    ].join("\n");
  }
  return "note" in block ? `<p style="color:#555">${e(block.note)}</p>` : `<p>${e(block.text)}</p>`;
}
