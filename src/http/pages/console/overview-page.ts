import type { Overview as OverviewAnswer } from '../../admin/responses.ts';
import type { Answered } from '../../openapi-types.ts';
import { esc } from '../html.ts';
import { consolePage, type Frame } from './layout.ts';

export type Overview = Answered<typeof OverviewAnswer>;

const CHARTS: [keyof Overview['series'], string][] = [
  ['signups', 'Sign-ups'],
  ['signins', 'Sign-ins (sessions opened)'],
  ['otp_sends', 'OTP sends'],
  ['webhook_failures', 'Webhook failures'],
];

const hourOf = (end: Date, hoursAgo: number) =>
  new Date(end.getTime() - hoursAgo * 3600_000).toISOString().slice(11, 16);

/**
 * One bar per hour, oldest first, drawn in SVG (no script) between a count axis (0 and the highest) and a time
 * axis (every six hours, UTC). An hour with none shows a stub on the axis; each bar's title says its hour
 * and count. Colours come from the stylesheet.
 */
export function chart(label: string, counts: number[], end: Date): string {
  const [left, top, w, h] = [30, 6, 290, 80];
  const max = Math.max(1, ...counts);
  const bw = w / counts.length;
  const bars = counts
    .map((n, i) => {
      const bh = Math.max(1, Math.round((n / max) * (h - 2)));
      const x = (left + i * bw + 1).toFixed(1);
      return `<rect class="${n ? 'bar' : 'bar none'}" x="${x}" y="${top + h - bh}" width="${(bw - 2).toFixed(1)}" height="${bh}"><title>${hourOf(end, counts.length - i)} UTC: ${n}</title></rect>`;
    })
    .join('');
  const ticks = [counts.length, 18, 12, 6, 0]
    .filter((ago) => ago <= counts.length)
    .map((ago) => {
      const x = left + (counts.length - ago) * bw;
      return `<line class="axis" x1="${x}" y1="${top + h}" x2="${x}" y2="${top + h + 4}"/><text x="${x}" y="${top + h + 15}" text-anchor="middle">${ago ? hourOf(end, ago) : 'now'}</text>`;
    })
    .join('');
  const axes = `<line class="axis" x1="${left}" y1="${top}" x2="${left}" y2="${top + h}"/><line class="axis" x1="${left}" y1="${top + h}" x2="${left + w}" y2="${top + h}"/><text x="${left - 4}" y="${top + 8}" text-anchor="end">${max}</text><text x="${left - 4}" y="${top + h}" text-anchor="end">0</text>`;
  const total = counts.reduce((a, b) => a + b, 0);
  return `<figure><figcaption>${esc(label)}: ${total}</figcaption>
<svg role="img" aria-label="${esc(label)} per hour, last ${counts.length} hours: ${total} in all" viewBox="0 0 ${left + w + 10} ${top + h + 20}" width="100%">${axes}${ticks}${bars}</svg>
<small>last ${counts.length} hours (UTC), one bar per hour; the highest is ${Math.max(...counts)}</small></figure>`;
}

export const overviewPage = (f: Frame, o: Overview) =>
  consolePage(
    'Overview',
    f,
    `<p>Active sessions: <strong id="active-sessions">${o.active_sessions_estimated ? 'about ' : ''}${o.active_sessions}</strong></p>
<div class="charts">${CHARTS.map(([key, label]) => chart(label, o.series[key], new Date(o.end))).join('')}</div>`,
  );
