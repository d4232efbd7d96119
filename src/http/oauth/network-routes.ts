import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import type { SendOptions } from '../../domain/codes/otp.ts';
import { DomainError } from '../../domain/errors.ts';
import { PageError } from '../errors/pages.ts';
import { fragmentReturnPage, type NetworkReturned, networkReturnFields } from '../pages/network-pages.ts';
import { viewOf } from '../pages/page-language.ts';
import type { PageFlow } from './authorization-steps.ts';
import { codeStepPage } from './code-routes.ts';
import { phoneProven } from './phone-proven.ts';
import { codeStateOf, HOSTED_NETWORK_CALLBACK } from './silent-send.ts';

// The hosted pages' silent step: after "Continue" on the phone step, where the configured vendor sends the
// device back and the browser is a phone's, the page says "Checking your number with your mobile network..."
// and sends the browser through the operator; it comes back here, under the pages' own path (their cookies are
// scoped to it), and goes on signed in or at the next step with no code typed. Where the network cannot say
// (Wi-Fi, an unsupported operator, no answer in time) or names another number, one code is sent and the code
// step says so. Without JavaScript: a plain refresh to the operator, and back by its redirect.

/** The services these routes use. */
type Services = Pick<
  Container,
  'clock' | 'codeSignIn' | 'config' | 'logos' | 'networkVerification' | 'otp' | 'recoveryCodes' | 'signIn'
>;

export function networkCallbackRoutes(fastify: FastifyInstance, c: Services, flow: PageFlow) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const hide = { hide: true };
  app.get(
    HOSTED_NETWORK_CALLBACK,
    { schema: { ...hide, querystring: Type.Object(networkReturnFields) } },
    (request, reply) => {
      const { state, code, error } = request.query;
      // Vonage's answer is in the fragment: the page reads it and posts it here.
      if (state && !code && !error && c.networkVerification.returns === 'fragment') {
        const v = viewOf(request, c, {});
        return flow.page.html(reply, 200, fragmentReturnPage(v, HOSTED_NETWORK_CALLBACK, { state }));
      }
      return networkReturned(c, flow, reply, request.query);
    },
  );
  app.post(
    HOSTED_NETWORK_CALLBACK,
    { schema: { ...hide, body: Type.Object(networkReturnFields) } },
    (request, reply) => networkReturned(c, flow, reply, request.body),
  );
}

/**
 * The browser is back from the operator: the check finished once, the flow's state it carried checked as a
 * form's is (this browser's, fresh, its client live), and on: proven, or one code sent and the code step.
 */
async function networkReturned(c: Services, flow: PageFlow, reply: FastifyReply, back: NetworkReturned) {
  const { state, ...callback } = back;
  const given = Object.fromEntries(
    Object.entries(callback).filter((field): field is [string, string] => !!field[1]),
  );
  const done = state ? await c.networkVerification.returned(state, given) : undefined;
  if (!done?.carry) throw new PageError(400, 'error.signin_expired');
  const request = reply.request;
  const { st, ctx } = await flow.page.formState(request, {
    csrf: flow.page.csrfOf(request),
    state: done.carry,
  });
  if (!st.phone) throw new PageError(400, 'error.start_again');
  const purpose = st.codePurpose ?? 'signup';
  const options: SendOptions = {
    language: ctx.view.lang,
    channel: purpose === 'signin' ? ctx.codeChannel : undefined,
  };
  try {
    const answer = await c.networkVerification.complete(done.id, options);
    if (answer.method === 'network')
      return await phoneProven(c, flow, { reply, ctx, st, tempToken: answer.temp_token });
    if (answer.method === 'pending') throw new PageError(400, 'error.start_again');
  } catch (err) {
    // Another number: a dual-SIM phone's data on the other SIM, say. A code proves the number instead.
    if (!(err instanceof DomainError && err.code === 'INVALID_CREDENTIALS')) throw err;
    await c.otp.sendCode(st.phone, purpose, { ...options, admitted: true });
  }
  const codeState = codeStateOf(st, st.phone, purpose, c.clock.now());
  const codeCtx = {
    ...ctx,
    state: flow.page.sealed(codeState, ctx.csrf),
    notice: 'network.code_instead' as const,
  };
  return flow.page.html(reply, 200, await codeStepPage(c, codeCtx, codeState), st.req.redirectUri);
}
