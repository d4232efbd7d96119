import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BreakerOpening, EconomicsReport } from '../admin/economics-routes.ts';
import { NetworkCheck, NetworkCountry } from '../admin/network-routes.ts';
import { listOf } from '../admin/responses.ts';
import { BreakerOverride, CountryTraffic, SmsHours } from '../admin/sms-routes.ts';
import { networkChecksPage } from '../pages/console/network-page.ts';
import { smsPage } from '../pages/console/sms-page.ts';
import { bodyOf, type ConsoleContext, formOf, one } from './console-context.ts';

const hide = { schema: { hide: true } };
const DAY_MS = 86_400_000;

/** The 7 UTC days that end with today's: their dates, and the span's start and end as the admin API takes them. */
function weekTo(now: Date) {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const days = [6, 5, 4, 3, 2, 1, 0].map((ago) => new Date(today - ago * DAY_MS).toISOString().slice(0, 10));
  const edge = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
  return { days, from: edge(today - 6 * DAY_MS), to: edge(today + DAY_MS) };
}
const country = (request: FastifyRequest) => encodeURIComponent(one(formOf(request.params).cc));

/**
 * The SMS defence: traffic and breaker per country, the operator's override, and the silent proofs beside the
 * codes; and the latest silent checks. All over the admin API.
 */
export function smsPages(app: FastifyInstance, ctx: ConsoleContext) {
  app.get('/console/sms', hide, async (request, reply) => {
    const frame = ctx.frame(request, '/console/sms');
    const week = weekTo(frame.now);
    const span = `from=${week.from}&to=${week.to}`;
    const [countries, hours, proofs, economics, openings] = await Promise.all([
      ctx.api(request, { path: '/sms/countries', answer: listOf(CountryTraffic) }),
      ctx.api(request, { path: '/sms/hours', answer: SmsHours }),
      ctx.api(request, { path: '/network-verifications/countries', answer: listOf(NetworkCountry) }),
      ctx.api(request, { path: `/sms/economics?${span}&group_by=day,country`, answer: EconomicsReport }),
      ctx.api(request, { path: `/sms/breaker-openings?${span}`, answer: listOf(BreakerOpening) }),
    ]);
    const drawn = { days: week.days, rows: bodyOf(economics).data.rows, openings: bodyOf(openings).data };
    const page = smsPage(frame, bodyOf(countries).data, bodyOf(hours), bodyOf(proofs).data, drawn);
    return ctx.page(reply, page);
  });
  app.get('/console/network-checks', hide, async (request, reply) => {
    const latest = await ctx.api(request, {
      path: '/network-verifications?limit=100',
      answer: listOf(NetworkCheck),
    });
    const frame = ctx.frame(request, '/console/network-checks');
    return ctx.page(reply, networkChecksPage(frame, bodyOf(latest).data));
  });
  app.post('/console/sms/:cc/breaker', hide, async (request, reply) => {
    const state = one(formOf(request.body).state);
    const path = `/sms/countries/${country(request)}/breaker`;
    const res = await ctx.api(request, { method: 'POST', path, body: { state }, answer: BreakerOverride });
    if (!res.ok) return ctx.seeOther(reply, '/console/sms', `Not changed: ${res.problem}`);
    const held = res.body.override ? `held ${res.body.override}` : 'decided by its traffic again';
    return ctx.seeOther(reply, '/console/sms', `${res.body.country}: ${held}.`);
  });
}
