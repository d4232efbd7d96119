import type { BreakerOpening as BreakerOpeningAnswer } from '../../admin/economics-routes.ts';
import type { Answered } from '../../openapi-types.ts';
import { esc } from '../html.ts';

// The economics of codes drawn for operators, in SVG the server writes (no script): per destination country,
// the codes sent and refused each day with the share entered as a line and the times its breaker was open as
// shaded bands; and what codes cost each day. Colours come from the stylesheet, so light and dark both read;
// each chart scales to its box, so a phone's 360 px shows it whole.

export type BreakerOpening = Answered<typeof BreakerOpeningAnswer>;

/** A day's figures for one country, as the economics report answers them grouped by day and country. */
export interface DayFigures {
  day?: string;
  country?: string;
  requested: number;
  sent: number;
  verified: number;
  cost: number;
}

/** The most countries drawn: those asked for the most codes. */
export const CHARTED_COUNTRIES = 6;

const DAY_MS = 86_400_000;
/** The plot's box in the viewBox: left and right for the axes' labels, above for the breaker's label. */
const [LEFT, RIGHT, TOP, HEIGHT, WIDTH] = [32, 30, 14, 80, 258];
const BOTTOM = TOP + HEIGHT;

const percent = (x: number) => `${Math.round(x * 100)}%`;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const money = (x: number) => (x >= 100 ? x.toFixed(0) : x.toFixed(2));

/** The x of a moment within the days drawn, held inside the plot. */
function xOf(days: string[], at: Date): number {
  const start = Date.parse(`${days[0]}T00:00:00Z`);
  const share = (at.getTime() - start) / (days.length * DAY_MS);
  return LEFT + Math.min(1, Math.max(0, share)) * WIDTH;
}

/** The frame every chart shares: both axes, the highest value on the left, each day's date below. */
function frame(days: string[], highest: string, rightAxis = ''): string {
  const bw = WIDTH / days.length;
  const labels = days
    .map(
      (d, i) =>
        `<text x="${(LEFT + (i + 0.5) * bw).toFixed(1)}" y="${BOTTOM + 14}" text-anchor="middle">${d.slice(5)}</text>`,
    )
    .join('');
  return `<line class="axis" x1="${LEFT}" y1="${TOP}" x2="${LEFT}" y2="${BOTTOM}"/><line class="axis" x1="${LEFT}" y1="${BOTTOM}" x2="${LEFT + WIDTH}" y2="${BOTTOM}"/><text x="${LEFT - 4}" y="${TOP + 8}" text-anchor="end">${esc(highest)}</text><text x="${LEFT - 4}" y="${BOTTOM}" text-anchor="end">0</text>${rightAxis}${labels}`;
}

const svg = (label: string, body: string) =>
  `<svg role="img" aria-label="${esc(label)}" viewBox="0 0 ${LEFT + WIDTH + RIGHT} ${BOTTOM + 20}" width="100%">${body}</svg>`;

/** The shaded bands of a country's breaker openings, each labelled where it starts. */
function openingBands(days: string[], openings: BreakerOpening[], end: Date): string {
  return openings
    .map((o) => {
      const x1 = xOf(days, new Date(o.opened_at));
      const x2 = Math.max(x1 + 4, xOf(days, o.closed_at ? new Date(o.closed_at) : end));
      const who = o.by_operator ? 'held open by an operator' : 'breaker open';
      const span = `${new Date(o.opened_at).toISOString().slice(0, 16)} to ${o.closed_at ? new Date(o.closed_at).toISOString().slice(0, 16) : 'now'} UTC`;
      const x = x1.toFixed(1);
      const edge = `<line class="open-edge" x1="${x}" y1="${TOP - 2}" x2="${x}" y2="${BOTTOM}"/>`;
      return `<rect class="open" x="${x}" y="${TOP}" width="${(x2 - x1).toFixed(1)}" height="${HEIGHT}"><title>${who}: ${span}</title></rect>${edge}<text class="open-label" x="${x}" y="${TOP - 4}" text-anchor="end">${who}</text>`;
    })
    .join('');
}

/** The share entered per day, as a line through the days that sent any, with a dot on each. */
function conversionLine(days: string[], byDay: Map<string, DayFigures>): string {
  const bw = WIDTH / days.length;
  const points = days.flatMap((d, i) => {
    const f = byDay.get(d);
    if (!f?.sent) return [];
    const share = f.verified / f.sent;
    return [{ x: LEFT + (i + 0.5) * bw, y: BOTTOM - Math.min(1, share) * HEIGHT, day: d, share }];
  });
  const line = points.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
  const dots = points
    .map(
      (p) =>
        `<circle class="rate" cx="${p.x.toFixed(1)}" cy="${p.y.toFixed(1)}" r="2.5"><title>${p.day}: ${percent(p.share)} entered</title></circle>`,
    )
    .join('');
  return `${points.length > 1 ? `<polyline class="rate" points="${line}"/>` : ''}${dots}`;
}

/** One country's week: codes sent (bars) and refused (stacked above), the share entered, its breaker's bands. */
function countryChart(
  country: string,
  days: string[],
  rows: DayFigures[],
  openings: BreakerOpening[],
  end: Date,
) {
  const byDay = new Map(rows.map((r) => [r.day ?? '', r]));
  const highest = Math.max(1, ...days.map((d) => byDay.get(d)?.requested ?? 0));
  const bw = WIDTH / days.length;
  const bars = days
    .map((d, i) => {
      const f = byDay.get(d);
      const [sent, refused] = [f?.sent ?? 0, (f?.requested ?? 0) - (f?.sent ?? 0)];
      const x = (LEFT + i * bw + 2).toFixed(1);
      const hSent = Math.round((sent / highest) * HEIGHT);
      const hRefused = Math.round((refused / highest) * HEIGHT);
      const title = `<title>${d}: ${sent} sent, ${refused} refused, ${f?.verified ?? 0} entered</title>`;
      return `<rect class="bar" x="${x}" y="${BOTTOM - hSent}" width="${(bw - 4).toFixed(1)}" height="${hSent}">${title}</rect>${hRefused ? `<rect class="bar refused" x="${x}" y="${BOTTOM - hSent - hRefused}" width="${(bw - 4).toFixed(1)}" height="${hRefused}">${title}</rect>` : ''}`;
    })
    .join('');
  const right = `<text x="${LEFT + WIDTH + 4}" y="${TOP + 8}">100%</text><text x="${LEFT + WIDTH + 4}" y="${BOTTOM}">0%</text>`;
  const [sent, verified] = [sum(rows.map((r) => r.sent)), sum(rows.map((r) => r.verified))];
  const entered = sent ? `, ${percent(verified / sent)} entered` : '';
  const opened = openings.length
    ? `; breaker open ${openings.length} ${openings.length === 1 ? 'time' : 'times'}`
    : '';
  const caption = `${country}: ${sent} sent${entered}${opened}`;
  const body = `${openingBands(days, openings, end)}${frame(days, String(highest), right)}${bars}${conversionLine(days, byDay)}`;
  return `<figure><figcaption>${esc(caption)}</figcaption>${svg(`${caption}, last ${days.length} days`, body)}</figure>`;
}

/** What codes and silent checks cost each day, all countries. */
function costChart(days: string[], rows: DayFigures[]): string {
  const costOf = (d: string) => sum(rows.filter((r) => r.day === d).map((r) => r.cost));
  const costs = days.map(costOf);
  const highest = Math.max(...costs);
  const bw = WIDTH / days.length;
  const bars = costs
    .map((c, i) => {
      const h = highest ? Math.max(1, Math.round((c / highest) * HEIGHT)) : 1;
      return `<rect class="${c ? 'bar' : 'bar none'}" x="${(LEFT + i * bw + 2).toFixed(1)}" y="${BOTTOM - h}" width="${(bw - 4).toFixed(1)}" height="${h}"><title>${days[i]}: ${money(c)}</title></rect>`;
    })
    .join('');
  const caption = `Cost: ${money(sum(costs))} in ${days.length} days`;
  return `<figure><figcaption>${esc(caption)}</figcaption>${svg(`${caption}; the most in a day ${money(highest)}`, `${frame(days, money(highest))}${bars}`)}</figure>`;
}

/**
 * The week's charts: cost per day, then the countries asked for the most codes, each with its breaker's
 * openings; the key says how to read them.
 */
export function economicsCharts(
  days: string[],
  rows: DayFigures[],
  openings: BreakerOpening[],
  end: Date,
): string {
  const byCountry = new Map<string, DayFigures[]>();
  for (const r of rows) if (r.country) byCountry.set(r.country, [...(byCountry.get(r.country) ?? []), r]);
  const countries = [...byCountry.entries()]
    .map(([country, rs]) => ({ country, requested: sum(rs.map((r) => r.requested)), rows: rs }))
    .filter((c) => c.requested > 0)
    .sort((a, b) => b.requested - a.requested || a.country.localeCompare(b.country))
    .slice(0, CHARTED_COUNTRIES);
  const charts = countries
    .map((c) =>
      countryChart(
        c.country,
        days,
        c.rows,
        openings.filter((o) => o.country === c.country),
        end,
      ),
    )
    .join('');
  const none = countries.length ? '' : '<p>No codes were asked for in these days.</p>';
  return `<h2>The last ${days.length} days</h2>
<p class="muted">Per country: bars are codes sent, with those refused by a defence or a limit stacked above; the
line is the share entered; a shaded band is a time its breaker was open. Days are UTC.</p>
<div class="charts">${costChart(days, rows)}${charts}</div>${none}`;
}
