import type { FastifyInstance, FastifyRequest } from 'fastify';
import { smsPage } from '../pages/console/sms-page.ts';
import { type ConsoleContext, formOf, one, problem } from './console-context.ts';

const hide = { schema: { hide: true } };
const country = (request: FastifyRequest) => encodeURIComponent(one(formOf(request.params).cc));

/** The SMS defence: traffic and breaker per country, and the operator's override, over the admin API. */
export function smsPages(app: FastifyInstance, ctx: ConsoleContext) {
  app.get('/console/sms', hide, async (request, reply) => {
    const [countries, hours] = await Promise.all([
      ctx.api(request, 'GET', '/sms/countries'),
      ctx.api(request, 'GET', '/sms/hours'),
    ]);
    return ctx.page(reply, smsPage(ctx.frame(request, '/console/sms'), countries.body.data, hours.body));
  });
  app.post('/console/sms/:cc/breaker', hide, async (request, reply) => {
    const state = one(formOf(request.body).state);
    const res = await ctx.api(request, 'POST', `/sms/countries/${country(request)}/breaker`, { state });
    if (res.status !== 200) return ctx.seeOther(reply, '/console/sms', `Not changed: ${problem(res)}`);
    const held = res.body.override ? `held ${res.body.override}` : 'decided by its traffic again';
    return ctx.seeOther(reply, '/console/sms', `${res.body.country}: ${held}.`);
  });
}
