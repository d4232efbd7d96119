import type { FastifyInstance } from 'fastify';
import type { Container } from '../../container.ts';
import { maskPhone, parsePhone } from '../../domain/phone.ts';
import {
  errorPage,
  type FormContext,
  signInPage,
  signUpAccountPage,
  signUpCodePage,
  signUpPhonePage,
} from '../pages/authorize-pages.ts';
import { type Body, linkedState, PageError, type PageFlow } from './page-flow.ts';

/** The hosted page's sign-up without leaving the flow: phone, code, then PIN and handle (D24). */
export function signupRoutes(app: FastifyInstance, c: Container, flow: PageFlow) {
  const { html, limit, csrfOf, formState, sealed, signedIn, retry } = flow;

  /** The page's links between sign-in and sign-up: the same request, its state carried in the query. */
  const linkedPage = (path: string, show: (ctx: FormContext, hint?: string) => string) =>
    app.get(path, { schema: { hide: true } }, async (request, reply) => {
      const query = request.query as Body;
      const csrf = csrfOf(request);
      const linked = await linkedState(c, query.state);
      if (!linked || !csrf)
        return html(reply, 400, errorPage('This sign-in has expired. Start again from the application.'));
      const ctx = { client: linked.client, csrf, state: query.state as string };
      return html(reply, 200, show(ctx, linked.st.req.loginHint), linked.st.req.redirectUri);
    });
  linkedPage('/authorize/signup', signUpPhonePage);
  linkedPage('/authorize/signin', signInPage); // P110: back from the sign-up page

  app.post('/authorize/signup/send', { schema: { hide: true } }, async (request, reply) => {
    const { st, ctx } = await formState(request);
    const phone = (request.body as Body).phone;
    try {
      const e164 = parsePhone(phone).e164;
      await limit(request, [
        ['otp_send_address', request.ip],
        ['otp_send_phone', e164],
      ]);
      await c.otp.send(e164, 'signup');
      return html(
        reply,
        200,
        signUpCodePage({ ...ctx, state: sealed({ ...st, phone: e164 }) }, maskPhone(e164)),
        st.req.redirectUri,
      );
    } catch (err) {
      return retry(
        reply,
        err,
        (error) => signUpPhonePage({ ...ctx, error }, String(phone ?? '')),
        st.req.redirectUri,
      );
    }
  });

  app.post('/authorize/signup/verify', { schema: { hide: true } }, async (request, reply) => {
    const { st, ctx } = await formState(request);
    if (!st.phone) throw new PageError(400, 'Start the sign-up again.');
    try {
      await limit(request);
      const { temp_token } = await c.otp.verify(st.phone, (request.body as Body).code, 'signup');
      return html(
        reply,
        200,
        signUpAccountPage({ ...ctx, state: sealed({ req: st.req, tempToken: temp_token }) }),
        st.req.redirectUri,
      );
    } catch (err) {
      return retry(
        reply,
        err,
        (error) => signUpCodePage({ ...ctx, error }, maskPhone(st.phone as string)),
        st.req.redirectUri,
      );
    }
  });

  app.post('/authorize/signup/create', { schema: { hide: true } }, async (request, reply) => {
    const { st, ctx } = await formState(request);
    if (!st.tempToken) throw new PageError(400, 'Start the sign-up again.');
    const body = request.body as Body;
    try {
      await limit(request);
      const name = typeof body.name === 'string' && body.name.trim() ? body.name : undefined;
      const { user } = await c.accounts.createAccount(
        { temp_token: st.tempToken, pin: body.pin, handle: body.handle, name },
        async () => {},
      );
      return await signedIn(reply, ctx, st, user);
    } catch (err) {
      return retry(reply, err, (error) => signUpAccountPage({ ...ctx, error }), st.req.redirectUri);
    }
  });
}
