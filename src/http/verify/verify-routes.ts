import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { parse as parseCookies, serialize } from 'cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { safeEqual } from '../../domain/crypto.ts';
import { DomainError } from '../../domain/errors.ts';
import type { Photo } from '../../domain/kyc/kyc.ts';
import { KYC_MAX_DOCUMENT_PHOTOS, KYC_MIN_AGE, KYC_PHOTO_MAX_BYTES } from '../../domain/kyc/kyc-rules.ts';
import { pageErrorHandler, STOPPING_PAGE } from '../pages/page-errors.ts';
import { sendPage } from '../pages/page-reply.ts';
import {
  linkProblemPage,
  somethingWrongPage,
  submittedPage,
  tooManyPage,
  unreadablePage,
  verifyFormPage,
} from '../pages/verify-pages.ts';

/** The services these routes use. */
type Services = Pick<Container, 'clock' | 'config' | 'kyc' | 'random' | 'rateLimiter'>;

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
/** The path's token if its link can be used; otherwise the page saying why (or 429) is sent. */
async function usableLink(
  c: Services,
  request: FastifyRequest<{ Params: { token: string } }>,
  reply: FastifyReply,
): Promise<string | undefined> {
  if ((await c.rateLimiter.hit([['verify_page_address', request.ip]])).exceeded) {
    sendPage(reply, 429, tooManyPage).header('Retry-After', '60');
    return undefined;
  }
  const { token } = request.params;
  const link = await c.kyc.openLink(token);
  if (!('problem' in link)) return token;
  sendPage(reply, link.problem === 'unknown' ? 404 : 410, linkProblemPage(link.problem));
  return undefined;
}

/** The hosted verification page on {verify_url} (D38): GET shows the form, POST takes the submission. */
export async function verifyPage(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // Whatever goes wrong, the user sees a page, not a JSON dump.
  app.setErrorHandler(
    pageErrorHandler(
      sendPage,
      {
        refused: () => unreadablePage,
        tooMany: tooManyPage,
        malformed: unreadablePage,
        failed: somethingWrongPage,
        stopping: STOPPING_PAGE,
      },
      'verification page',
    ),
  );
  await app.register(multipart, {
    limits: {
      fileSize: KYC_PHOTO_MAX_BYTES,
      files: KYC_MAX_DOCUMENT_PHOTOS + 1,
      fields: FIELDS.length,
      fieldSize: 1024,
      parts: FIELDS.length + KYC_MAX_DOCUMENT_PHOTOS + 1,
    },
  });
  const secure = c.config.verifyUrl.startsWith('https:');
  app.get('/verify/:token', { schema }, async (request, reply) => {
    const token = await usableLink(c, request, reply);
    if (!token) return reply;
    const csrf = c.random.token(24);
    reply.header(
      'Set-Cookie',
      serialize(CSRF_COOKIE, csrf, {
        httpOnly: true,
        secure,
        sameSite: 'strict',
        path: '/verify',
        maxAge: 1800,
      }),
    );
    return sendPage(
      reply,
      200,
      verifyFormPage({ action: `/verify/${token}`, csrf, maxBirthday: maxBirthday(c) }),
    );
  });

  app.post('/verify/:token', { schema }, async (request, reply) => {
    const token = await usableLink(c, request, reply);
    if (!token) return reply;
    const csrf = parseCookies(request.headers.cookie ?? '')[CSRF_COOKIE] ?? '';
    const again = (status: number, error: string, values: Record<string, string> = {}) =>
      sendPage(
        reply,
        status,
        verifyFormPage({ action: `/verify/${token}`, csrf, error, values, maxBirthday: maxBirthday(c) }),
      );

    const fields: Record<string, string> = {};
    const photos: Photo[] = [];
    if (!request.isMultipart()) return again(415, 'Send the form as it is shown on this page.');
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
      if (code === 'FST_REQ_FILE_TOO_LARGE') return again(413, 'Each photo must be at most 10 MB.', fields);
      if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
        return again(400, 'Add at most two document photos and one selfie.', fields);
      // Anything else is the body itself, malformed or cut off (P63): the user gets the form back.
      return again(400, 'The form could not be read. Please send it again.', fields);
    }
    if (!csrf || !fields.csrf || !safeEqual(csrf, fields.csrf))
      return again(400, 'This form has expired or did not come from this page. Please try again.', fields);
    try {
      const v = await c.kyc.submit(token, fields, photos);
      reply.header('Set-Cookie', serialize(CSRF_COOKIE, '', { path: '/verify', maxAge: 0 }));
      return sendPage(reply, 200, submittedPage(v.status));
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      if (err.code === 'NOT_FOUND' || err.code === 'FORBIDDEN')
        return sendPage(reply, 410, linkProblemPage('used'));
      // D38: nothing is stored and the status does not move; the page says what to fix.
      return again(400, err.message, fields);
    }
  });
}
