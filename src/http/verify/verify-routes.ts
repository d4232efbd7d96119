import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { safeEqual } from '../../domain/crypto.ts';
import { DomainError } from '../../domain/errors.ts';
import type { Photo } from '../../domain/kyc/kyc.ts';
import { KYC_MAX_DOCUMENT_PHOTOS, KYC_MIN_AGE, KYC_PHOTO_MAX_BYTES } from '../../domain/kyc/kyc-rules.ts';
import type { MessageKey } from '../../i18n/languages.ts';
import { hostCookies } from '../cookies/host-cookies.ts';
import type { FormProblem } from '../errors/page-messages.ts';
import { type ErrorPages, pageErrorHandler } from '../errors/pages.ts';
import { viewOf } from '../pages/page-language.ts';
import { sendPage } from '../pages/page-reply.ts';
import {
  linkProblemPage,
  somethingWrongPage,
  submittedPage,
  tooManyPage,
  unreadablePage,
  verifyFormPage,
  verifyProblem,
} from '../pages/verify-pages.ts';
import type { View } from '../pages/view.ts';

/** The services these routes use. */
type Services = Pick<Container, 'clock' | 'config' | 'kyc' | 'logos' | 'random' | 'rateLimiter'>;

const CSRF_COOKIE = 'callsign_verify_csrf';
const FIELDS = ['csrf', 'country', 'birthday', 'document_kind'] as const;

const params = Type.Object({ token: Type.String({ maxLength: 100 }) });
const schema = { tags: ['Hosted pages'], params, hide: true };

/** The latest birthday the age check accepts, today. */
const maxBirthday = (c: Services) => {
  const d = c.clock.now();
  d.setUTCFullYear(d.getUTCFullYear() - KYC_MIN_AGE);
  return d.toISOString().slice(0, 10);
};
/**
 * The path's token if its link can be used, with the page's view (in the person's pick, their account's
 * language, or their browser's); otherwise the page saying why (or 429) is sent.
 */
async function usableLink(
  c: Services,
  request: FastifyRequest<{ Params: { token: string } }>,
  reply: FastifyReply,
): Promise<{ token: string; view: View } | undefined> {
  const { token } = request.params;
  const back = `/verify/${encodeURIComponent(token)}`;
  if ((await c.rateLimiter.hit([['verify_page_address', request.ip]])).exceeded) {
    sendPage(reply, 429, tooManyPage(viewOf(request, c, {}, back))).header('Retry-After', '60');
    return undefined;
  }
  const link = await c.kyc.openLink(token);
  if (!('problem' in link)) return { token, view: viewOf(request, c, { account: link.language }, back) };
  const view = viewOf(request, c, {}, back);
  sendPage(reply, link.problem === 'unknown' ? 404 : 410, linkProblemPage(view, link.problem));
  return undefined;
}

/** The verification page's error pages, in the request's language. */
function verifyErrors(c: Services, request: FastifyRequest): ErrorPages {
  const v = viewOf(request, c);
  return {
    refused: () => unreadablePage(v),
    tooMany: () => tooManyPage(v),
    malformed: unreadablePage(v),
    failed: somethingWrongPage(v),
    stopping: somethingWrongPage(v),
  };
}

/** The hosted verification page on {verify_url}: GET shows the form, POST takes the submission. */
export async function verifyPage(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // Whatever goes wrong, the user sees a page, not a JSON dump.
  app.setErrorHandler(pageErrorHandler(sendPage, (request) => verifyErrors(c, request), 'verification page'));
  await app.register(multipart, {
    limits: {
      fileSize: KYC_PHOTO_MAX_BYTES,
      files: KYC_MAX_DOCUMENT_PHOTOS + 1,
      fields: FIELDS.length,
      fieldSize: 1024,
      parts: FIELDS.length + KYC_MAX_DOCUMENT_PHOTOS + 1,
    },
  });
  const cookies = hostCookies(c.config.verifyUrl);
  app.get('/verify/:token', { schema }, async (request, reply) => {
    const link = await usableLink(c, request, reply);
    if (!link) return reply;
    const { token, view } = link;
    const csrf = c.random.token(24);
    reply.header(
      'Set-Cookie',
      cookies.set(CSRF_COOKIE, csrf, { path: '/verify', maxAge: 1800, sameSite: 'strict' }),
    );
    return sendPage(
      reply,
      200,
      verifyFormPage({ action: `/verify/${token}`, csrf, view, maxBirthday: maxBirthday(c) }),
    );
  });

  app.post('/verify/:token', { schema }, async (request, reply) => {
    const link = await usableLink(c, request, reply);
    if (!link) return reply;
    const { token, view } = link;
    const csrf = cookies.get(request, CSRF_COOKIE) ?? '';
    const problemPage = (status: number, problem: FormProblem, values: Record<string, string>) =>
      sendPage(
        reply,
        status,
        verifyFormPage({
          action: `/verify/${token}`,
          csrf,
          view,
          problem,
          values,
          maxBirthday: maxBirthday(c),
        }),
      );
    const again = (status: number, key: MessageKey, values: Record<string, string> = {}) =>
      problemPage(status, { message: view.t(key) }, values);

    const fields: Record<string, string> = {};
    const photos: Photo[] = [];
    if (!request.isMultipart()) return again(415, 'verify.error.not_multipart');
    try {
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          if ((FIELDS as readonly string[]).includes(part.fieldname))
            fields[part.fieldname] = String(part.value);
        } else if (part.fieldname === 'document' || part.fieldname === 'selfie') {
          const data = await part.toBuffer();
          // A file input left empty still sends a part, with no name and no bytes.
          if (data.length > 0) photos.push({ kind: part.fieldname, data });
        } else await part.toBuffer();
      }
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE') return again(413, 'verify.error.photo_too_large', fields);
      if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
        return again(400, 'verify.error.files_too_many', fields);
      // Anything else is the body itself, malformed or cut off: the user gets the form back.
      return again(400, 'verify.error.form_unreadable', fields);
    }
    if (!csrf || !fields.csrf || !safeEqual(csrf, fields.csrf))
      return again(400, 'verify.error.form_expired', fields);
    try {
      const v = await c.kyc.submit(token, fields, photos);
      reply.header(
        'Set-Cookie',
        cookies.set(CSRF_COOKIE, '', { path: '/verify', maxAge: 0, sameSite: 'strict' }),
      );
      return sendPage(reply, 200, submittedPage(view, v.status));
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      if (err.code === 'NOT_FOUND' || err.code === 'FORBIDDEN')
        return sendPage(reply, 410, linkProblemPage(view, 'used'));
      // Nothing is stored and the status does not move; the page says what to fix, beside its field.
      return problemPage(400, verifyProblem(view, err), fields);
    }
  });
}
