import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { Overview } from "@/lib/backoffice/operations/overview";
import { ADMIN_MESSAGES } from "@/lib/i18n/admin-messages";
import { OverviewDaily, OverviewFunnel } from "./overview-charts";

const days = Array.from({ length: 30 }, (_, i) => ({
  day: new Date(Date.UTC(2026, 9, 24 + i)).toISOString().slice(0, 10),
  opened: i === 29 ? 1234 : i === 3 ? 2 : 0,
  confirmed: i === 29 ? 3 : 0,
}));
const OVERVIEW: Overview = {
  timeZone: "Europe/Madrid",
  firstDay: "2026-10-24",
  lastDay: "2026-11-22",
  days,
  funnel: { opened: 1236, detailsGiven: 600, planChosen: 20, signed: 5, confirmed: 3, refused: 2, expired: 1 },
};

describe("the overview's charts", () => {
  it("draw the funnel as an SVG image with a title and description, and a table of the same figures", () => {
    const html = renderToStaticMarkup(<OverviewFunnel overview={OVERVIEW} m={ADMIN_MESSAGES.en.overview} locale="en" />);
    expect(html).toMatch(/<svg role="img" aria-labelledby="overview-funnel-title" aria-describedby="overview-funnel-desc"/);
    expect(html).toContain('<title id="overview-funnel-title">Funnel of the last 30 days</title>');
    expect(html).toContain("Sessions opened 1,236, Details given 600, Plan chosen 20, Signed 5, Confirmed 3, Refused 2, Expired 1.");
    expect(html).toContain('<div class="sr-only"><table><caption>Funnel of the last 30 days: sessions by step reached</caption>');
    expect(html).toContain('<tr data-step="signed"><th scope="row">Signed</th><td>5</td><td>0%</td></tr>');
    expect(html).toContain('<tr data-step="confirmed"><th scope="row">Outcome: Confirmed</th><td>3</td><td>0%</td></tr>');
    expect(html).toContain('<tr data-step="detailsGiven"><th scope="row">Details given</th><td>600</td><td>49%</td></tr>');
    // No script, no inline style (the CSP has no 'unsafe-inline' for either).
    expect(html).not.toContain("<script");
    expect(html).not.toContain("style=");
  });

  it("draw thirty days, zeros included, with the figures in a table (Spanish formats)", () => {
    const html = renderToStaticMarkup(<OverviewDaily overview={OVERVIEW} m={ADMIN_MESSAGES.es.overview} locale="es" />);
    expect(html.match(/<g data-day=/g)).toHaveLength(30);
    expect(html.match(/<tr data-day=/g)).toHaveLength(30);
    expect(html).toContain('<tr data-day="2026-10-25"><th scope="row"><time dateTime="2026-10-25">');
    expect(html).toMatch(/<tr data-day="2026-10-25"><th scope="row"><time [^>]+>[^<]+<\/time><\/th><td>0<\/td><td>0<\/td><\/tr>/);
    expect(html).toMatch(/<tr data-day="2026-11-22"><th scope="row"><time [^>]+>[^<]+<\/time><\/th><td>1234<\/td><td>3<\/td><\/tr>/);
    expect(html).toContain("1236 sesiones abiertas, 3 confirmadas. El día con más sesiones fue el dom, 22 nov 2026, con 1234.");
    // The scale's top is a round figure above the busiest day.
    expect(html).toContain(">2000</text>");
    expect(html).not.toContain("style=");
  });

  it("show a window without sessions as thirty empty days", () => {
    const empty: Overview = {
      ...OVERVIEW,
      days: days.map((d) => ({ ...d, opened: 0, confirmed: 0 })),
      funnel: { opened: 0, detailsGiven: 0, planChosen: 0, signed: 0, confirmed: 0, refused: 0, expired: 0 },
    };
    const daily = renderToStaticMarkup(<OverviewDaily overview={empty} m={ADMIN_MESSAGES.en.overview} locale="en" />);
    expect(daily).toContain("0 sessions opened, 0 confirmed. No day had sessions.");
    expect(daily.match(/<tr data-day=/g)).toHaveLength(30);
    const funnel = renderToStaticMarkup(<OverviewFunnel overview={empty} m={ADMIN_MESSAGES.en.overview} locale="en" />);
    expect(funnel).toContain('<tr data-step="opened"><th scope="row">Sessions opened</th><td>0</td><td>–</td></tr>');
  });
});
