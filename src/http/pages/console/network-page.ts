import type { NetworkCheck, NetworkCountry } from '../../admin/network-routes.ts';
import type { Answered } from '../../openapi-types.ts';
import { esc } from '../html.ts';
import { consolePage, type Frame, table } from './layout.ts';

// The silent checks by the mobile network as operators see them: beside the SMS traffic, per country, how many
// numbers were proven silently and how many fell back to a code, and what each cost; beside the message log,
// the latest checks one by one.

export type NetworkCountrySummary = Answered<typeof NetworkCountry>;
export type NetworkCheckSummary = Answered<typeof NetworkCheck>;

const money = (x: number | null) => (x === null ? '–' : x.toFixed(4).replace(/0{1,2}$/, ''));

/** The SMS page's section: silent proofs and codes per country over the last 24 hours. */
export const silentProofsSection = (
  countries: NetworkCountrySummary[],
) => `<h2 id="silent-proofs">Silent proofs and codes, last 24 hours</h2>
<p>Numbers proven by their mobile network with no code, checks the network could not answer (a code went
instead), and what the checks and the codes cost, at the prices configured.</p>
${table(
  [
    'Country',
    'Checks',
    'Proven silently',
    'Another number',
    'Fell back to a code',
    'Checks’ cost',
    'Codes sent',
    'Codes’ cost',
  ],
  countries.map((c) => [
    esc(c.country),
    String(c.tried),
    String(c.verified),
    String(c.other_number),
    String(c.fell_back),
    money(c.checks_cost),
    String(c.codes_sent),
    money(c.codes_cost),
  ]),
  'No checks and no codes in the last 24 hours.',
)}`;

/** The latest silent checks, beside the message log. */
export const networkChecksPage = (f: Frame, latest: NetworkCheckSummary[]) =>
  consolePage(
    'Silent checks',
    f,
    `<p>Each check of a number by its mobile network, newest first: how it ended, and why where the vendor
said. A check that did not prove the number was followed by a code (see Messages).</p>
${table(
  ['Started', 'Phone', 'Country', 'Purpose', 'Provider', 'Outcome', 'Why', 'Price'],
  latest.map((c) => [
    esc(c.created_at.replace('T', ' ').slice(0, 19)),
    esc(c.phone),
    esc(c.country ?? '–'),
    esc(c.purpose),
    esc(c.provider),
    esc(c.outcome),
    esc(c.detail ?? '–'),
    money(c.price),
  ]),
  'No silent checks yet.',
)}`,
  );
