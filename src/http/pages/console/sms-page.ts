import type {
  CountryTraffic as CountryTrafficAnswer,
  SmsHours as SmsHoursAnswer,
} from '../../admin/sms-routes.ts';
import type { Answered } from '../../openapi-types.ts';
import { esc } from '../html.ts';
import { type BreakerOpening, type DayFigures, economicsCharts } from './economics-charts.ts';
import { consolePage, type Frame, postForm, table } from './layout.ts';
import { type NetworkCountrySummary, silentProofsSection } from './network-page.ts';
import { chart } from './overview-page.ts';

interface Period {
  sent: number;
  attested: number;
  verified: number;
  conversion: number | null;
  refused: Record<string, number>;
}

export type CountryTraffic = Answered<typeof CountryTrafficAnswer>;

export type SmsHours = Answered<typeof SmsHoursAnswer>;

const percent = (x: number | null) => (x === null ? '–' : `${Math.round(x * 100)}%`);
const refused = (p: Period) => Object.values(p.refused).reduce((a, b) => a + b, 0);

/** The override's three buttons for a country; the one in force is not offered. */
function overrideForms(csrf: string, c: CountryTraffic): string {
  const action = `/console/sms/${encodeURIComponent(c.country)}/breaker`;
  const now = c.override ?? 'auto';
  return (['open', 'closed', 'auto'] as const)
    .filter((state) => state !== now)
    .map((state) =>
      postForm(
        action,
        csrf,
        `<input type="hidden" name="state" value="${state}">`,
        `${c.country}: ${state === 'auto' ? 'by traffic' : `hold ${state}`}`,
      ),
    )
    .join(' ');
}

/** The week of the economics of codes the page draws: its days (UTC, oldest first), figures and openings. */
export interface EconomicsWeek {
  days: string[];
  rows: DayFigures[];
  openings: BreakerOpening[];
}

/**
 * The SMS defence per destination country: the week's sends, conversion, cost and breaker openings drawn; the
 * last hours' codes; per country the refusals, the breaker and its override; the silent proofs.
 */
export const smsPage = (
  f: Frame,
  countries: CountryTraffic[],
  hours: SmsHours,
  proofs: NetworkCountrySummary[],
  week: EconomicsWeek,
) =>
  consolePage(
    'SMS traffic',
    f,
    `<p>Codes sent and entered per destination country. A country whose codes are rarely entered opens its
breaker: its sends then need a solved challenge, and at most a few an hour go there. Codes a genuine app did not
attest are "unattested": a pumping wave shows there.</p>
${economicsCharts(week.days, week.rows, week.openings, f.now)}
<h2>The last 24 hours</h2>
<div class="charts">${chart('Codes sent, all countries', hours.sent, new Date(hours.end))}${chart('Codes entered, all countries', hours.verified, new Date(hours.end))}</div>
${table(
  [
    'Country',
    'Last hour: sent',
    'unattested',
    'entered',
    'conversion',
    'refused',
    'Last 24 h: sent',
    'entered',
    'Breaker',
    'Override',
    '',
  ],
  countries.map((c) => [
    esc(c.country),
    String(c.last_hour.sent),
    String(c.last_hour.sent - c.last_hour.attested),
    String(c.last_hour.verified),
    percent(c.last_hour.conversion),
    String(refused(c.last_hour)),
    String(c.last_24h.sent),
    String(c.last_24h.verified),
    c.breaker === 'open' ? '<strong>open</strong>' : 'closed',
    c.override ? `held ${c.override}` : 'by traffic',
    overrideForms(f.csrf, c),
  ]),
  'No codes sent in the last 24 hours.',
)}${silentProofsSection(proofs)}`,
  );
