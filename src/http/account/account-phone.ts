import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { captchaWidget } from '../../config/captcha-vendors.ts';
import { isPhoneCountry } from '../../config/look-settings.ts';
import { ACCOUNT_PAGE_PATH, accountPageLocation } from '../../domain/clients/account-page-client.ts';
import { DomainError } from '../../domain/errors.ts';
import type { SignedIn } from '../../domain/oauth/authorization.ts';
import { parsePhoneIn } from '../../domain/phone.ts';
import type { SendProof } from '../../domain/sms-defence/person-check.ts';
import { blockCounting, codeSendLimits } from '../../domain/sms-defence/send-limits.ts';
import type { PageFlow } from '../oauth/authorization-steps.ts';
import {
  type PhoneStep,
  phoneCaptchaPage,
  phoneChallengePage,
  phoneCodePage,
} from '../pages/account-phone-pages.ts';
import { viewOf } from '../pages/page-language.ts';
import { sendPage } from '../pages/page-reply.ts';
import { accountForm } from './account-changes.ts';
import type { AccountAnswers, AccountServices } from './account-context.ts';

// The account page's phone change: a code to the new number (under the limits on codes, and the SMS defence's
// proof of a person when it asks), then the code and the PIN. Each step calls the REST call's own domain rule
// (POST /users/me/phone and /confirm), so it writes the same event and tells the old number.

export function accountPhoneRoutes(
  fastify: FastifyInstance,
  c: AccountServices,
  a: AccountAnswers,
  flow: PageFlow,
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  /** A step's page in the account's language, with the way back to the account page. */
  const stepOf = async (
    request: FastifyRequest,
    who: SignedIn,
    s: Omit<PhoneStep, 'view'>,
  ): Promise<PhoneStep> => {
    const account = await c.profiles.get(who.userId);
    return { ...s, view: viewOf(request, c, { account: account.language }, accountPageLocation(s.returnTo)) };
  };

  /** Sends the code, or the page of the proof of a person the SMS defence asks for first. */
  const send = async (
    request: FastifyRequest,
    reply: FastifyReply,
    sending: { who: SignedIn; step: PhoneStep; proof: SendProof },
  ) => {
    const { who, step, proof } = sending;
    try {
      await flow.page.limit(request, codeSendLimits(request.ip, step.phone, blockCounting(c.config)));
      await c.phoneChange.start(who.userId, step.phone, step.phone, {
        proof,
        languageWishes: [step.view.lang],
      });
    } catch (err) {
      if (err instanceof DomainError && err.code === 'CHALLENGE_REQUIRED') {
        const captcha = c.config.captcha;
        if (!captcha) return sendPage(reply, 200, phoneChallengePage(step, err.details.challenge as object));
        const { widget, policy } = captchaWidget(captcha);
        return sendPage(reply, 200, phoneCaptchaPage(step, widget), { widget: policy });
      }
      // A send refused by a limit on codes is counted for the operators, as everywhere.
      await c.defence.rateLimited(err, step.phone).catch(() => undefined);
      throw err;
    }
    return sendPage(reply, 200, phoneCodePage(step));
  };

  const sendForm = accountForm(
    ...['phone', 'country', 'challenge_solution'],
    ...['cf-turnstile-response', 'h-captcha-response'],
  );
  app.post(`${ACCOUNT_PAGE_PATH}/phone`, sendForm, async (request, reply) => {
    const { who, returnTo, csrf } = await a.checkedPost(request, request.body);
    if (!who) return a.toPage(reply, returnTo);
    const typed = request.body.phone ?? '';
    try {
      const country = isPhoneCountry(request.body.country) ? request.body.country : undefined;
      const phone = parsePhoneIn(typed, country).e164;
      const {
        challenge_solution,
        'cf-turnstile-response': turnstile,
        'h-captcha-response': hcaptcha,
      } = request.body;
      const proof = {
        challengeSolution: challenge_solution,
        captchaToken: turnstile ?? hcaptcha,
        address: request.ip,
      };
      const step = await stepOf(request, who, { csrf, returnTo, phone });
      return await send(request, reply, { who, step, proof });
    } catch (refused) {
      return a.show(request, reply, who, { returnTo, refused, typedPhone: typed });
    }
  });

  app.post(
    `${ACCOUNT_PAGE_PATH}/phone/confirm`,
    accountForm('phone', 'code', 'pin'),
    async (request, reply) => {
      const { who, returnTo, csrf } = await a.checkedPost(request, request.body);
      if (!who) return a.toPage(reply, returnTo);
      const { phone = '', code = '', pin = '' } = request.body;
      try {
        await c.phoneChange.confirm(who.userId, { phone, code, pin });
        return a.done(reply, 'account.phone_changed', returnTo);
      } catch (refused) {
        const step = await stepOf(request, who, { csrf, returnTo, phone });
        const { problem, status } = a.refusal(step.view, refused);
        return sendPage(reply, status, phoneCodePage({ ...step, problem }));
      }
    },
  );
}
