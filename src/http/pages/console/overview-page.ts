import { esc } from '../html.ts';
import { consolePage, type Frame } from './layout.ts';

export interface Overview {
  end: string;
  hours: number;
  series: Record<'signups' | 'signins' | 'otp_sends' | 'webhook_failures', number[]>;
  active_sessions: number;
}

const CHARTS: [keyof Overview['series'], string][] = [
  ['signups', 'Sign-ups'],
  ['signins', 'Sign-ins (sessions opened)'],
  ['otp_sends', 'OTP sends'],
  ['webhook_failures', 'Webhook failures'],
];

/** One bar per hour, oldest first, drawn in SVG (no script); each bar's title says its hour and count. */
export function chart(label: string, counts: number[], end: Date): string {
  const w = 300;
  const h = 80;
  const max = Math.max(1, ...counts);
  const bw = w / counts.length;
  const bars = counts
    .map((n, i) => {
      const hoursAgo = counts.length - i;
      const bh = Math.round((n / max) * (h - 4));
      const from = new Date(end.getTime() - hoursAgo * 3600_000).toISOString().slice(11, 16);
      return `<rect x="${(i * bw + 1).toFixed(1)}" y="${h - bh}" width="${(bw - 2).toFixed(1)}" height="${bh}" fill="#2563eb"><title>${from} UTC: ${n}</title></rect>`;
    })
    .join('');
  const total = counts.reduce((a, b) => a + b, 0);
  return `<figure><figcaption>${esc(label)}: ${total}</figcaption>
<svg role="img" aria-label="${esc(label)} per hour, last ${counts.length} hours: ${total} in all" viewBox="0 0 ${w} ${h}" width="100%" height="${h}">
<line x1="0" y1="${h - 0.5}" x2="${w}" y2="${h - 0.5}" stroke="#999"/>${bars}</svg>
<small>last ${counts.length} hours, one bar per hour; the highest is ${Math.max(...counts)}</small></figure>`;
}

export const overviewPage = (f: Frame, o: Overview) =>
  consolePage(
    'Overview',
    f,
    `<p>Active sessions: <strong id="active-sessions">${o.active_sessions}</strong></p>
<div class="charts">${CHARTS.map(([key, label]) => chart(label, o.series[key], new Date(o.end))).join('')}</div>`,
  );
