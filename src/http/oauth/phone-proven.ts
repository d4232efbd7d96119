import type { FastifyReply } from 'fastify';
import type { Container } from '../../composition/container.ts';
import type { FormContext } from '../pages/authorize-pages.ts';
import { signUpAccountPage } from '../pages/authorize-pages.ts';
import { resetPinPage } from '../pages/reset-pages.ts';
import type { PageFlow } from './authorization-steps.ts';
import type { PageState } from './page-forms.ts';

// The phone is proven, by a code typed or by the mobile network, and the hosted flow goes on: a sign-in signed
// in (as after a PIN), a PIN reset to its new PIN, a sign-up to its account's details.

/** The services this step uses. */
type Services = Pick<Container, 'codeSignIn' | 'signIn'>;

export async function phoneProven(
  c: Services,
  flow: PageFlow,
  o: { reply: FastifyReply; ctx: FormContext; st: PageState; tempToken: string },
) {
  const { reply, ctx, st, tempToken } = o;
  const { html, sealed } = flow.page;
  const purpose = st.codePurpose ?? 'signup';
  if (purpose === 'signin') {
    const { user, amr } = await c.signIn.onPage(c.codeSignIn.proof(tempToken));
    return await flow.steps.signedIn({ reply, ctx, st: { req: st.req }, user, amr });
  }
  const next = { req: st.req, tempToken };
  if (purpose === 'pin_reset') {
    const state = sealed({ ...next, codePurpose: purpose }, ctx.csrf);
    return html(reply, 200, resetPinPage({ ...ctx, state }), st.req.redirectUri);
  }
  const state = sealed(next, ctx.csrf);
  return html(reply, 200, signUpAccountPage({ ...ctx, state }), st.req.redirectUri);
}
