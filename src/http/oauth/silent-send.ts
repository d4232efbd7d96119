import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Container } from '../../composition/container.ts';
import type { SendOptions } from '../../domain/codes/otp.ts';
import type { FormContext } from '../pages/authorize-pages.ts';
import { checkingPage } from '../pages/network-pages.ts';
import type { PageFlow } from './authorization-steps.ts';
import type { PageState } from './page-forms.ts';

// The hosted phone step's send: where the configured vendor sends the device back to the pages and the browser
// is a phone's, a silent check by the mobile network first (network-routes.ts takes the browser back), else the
// code as before. Twilio's device never comes back, so the pages send a code with it.

/** The services this step uses. */
type Services = Pick<Container, 'config' | 'networkVerification' | 'otp'>;

/** Where the operator sends the hosted pages' browser back. */
export const HOSTED_NETWORK_CALLBACK = '/authorize/network/callback';

/** A phone's browser, as its client hints or its user agent say. */
const PHONE_BROWSER = /Mobi|Android|iPhone/;

/** The code step's state of a phone and purpose, the code sent now or about to be. */
export function codeStateOf(st: PageState, phone: string, purpose: string, now: Date): PageState {
  const codeState: PageState = { req: st.req, phone, codeSentAt: now.getTime() };
  if (purpose === 'signin' || purpose === 'pin_reset') codeState.codePurpose = purpose;
  return codeState;
}

/**
 * The phone step's send: a silent check where the vendor sends the device back and the browser is a phone's
 * (answers the operator's URL), else the code sent as before (answers undefined).
 */
export async function sendOrCheck(
  c: Services,
  request: FastifyRequest,
  o: { phone: string; purpose: 'signup' | 'signin' | 'pin_reset'; options: SendOptions; carry: string },
): Promise<string | undefined> {
  const phoneBrowser =
    request.headers['sec-ch-ua-mobile'] === '?1' || PHONE_BROWSER.test(request.headers['user-agent'] ?? '');
  const vendorReturns = c.networkVerification.returns;
  if (!phoneBrowser || !vendorReturns || vendorReturns === 'none') {
    await c.otp.sendCode(o.phone, o.purpose, o.options);
    return undefined;
  }
  const callbackUrl = `${c.config.authUrl}${HOSTED_NETWORK_CALLBACK}`;
  const started = await c.networkVerification.start(o.phone, o.purpose, o.options, {
    callbackUrl,
    carry: o.carry,
  });
  return started.method === 'network' ? started.url : undefined;
}

/** "Checking your number with your mobile network...", on to the operator. */
export const checkingStep = (
  flow: PageFlow,
  reply: FastifyReply,
  o: { st: PageState; ctx: FormContext },
  url: string,
) => flow.page.html(reply, 200, checkingPage(o.ctx.view, url), o.st.req.redirectUri);
