import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../composition/container.ts';
import { NETWORK_CALLBACK_PATH } from '../../composition/network-verification.ts';
import { page } from '../pages/html.ts';
import { fragmentReturnPage, type NetworkReturned, networkReturnFields } from '../pages/network-pages.ts';
import { viewOf } from '../pages/page-language.ts';
import { sendPage } from '../pages/page-reply.ts';

// Where the operator (or Vonage) sends the device back after a check the REST surface started, answered with a
// short page in the language the check started in; and the public key the operator registers for Callsign's
// signed requests. Where the answer rides in the URL's fragment (Vonage), the page's script posts it back here.

/** The services these routes use. */
type Services = Pick<Container, 'config' | 'logos' | 'networkVerification' | 'operatorClientKey'>;

/** The check finished with what the device came back with: "go back to the app", or "this link is not valid". */
async function finished(c: Services, request: FastifyRequest, reply: FastifyReply, back: NetworkReturned) {
  const { state, ...callback } = back;
  const given = Object.fromEntries(Object.entries(callback).filter(([, value]) => value));
  const done = state ? await c.networkVerification.returned(state, given) : undefined;
  // The language the check was started in, as an app's wish.
  const v = viewOf(request, { config: c.config, logos: c.logos }, { uiLocales: done?.language });
  const [title, words] = done
    ? (['network.back_title', 'network.back'] as const)
    : (['network.unknown_title', 'network.unknown'] as const);
  return sendPage(reply, done ? 200 : 400, page(v, v.t(title), `<p>${v.t(words)}</p>`));
}

export function networkReturnRoutes(fastify: FastifyInstance, c: Services) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const hide = { tags: ['Hosted pages'], hide: true };
  app.get(
    NETWORK_CALLBACK_PATH,
    { schema: { ...hide, querystring: Type.Object(networkReturnFields) } },
    (request, reply) => {
      const { state, code, error } = request.query;
      // Vonage's answer is in the fragment: the page reads it and posts it here.
      if (state && !code && !error && c.networkVerification.returns === 'fragment') {
        const v = viewOf(request, { config: c.config, logos: c.logos }, {});
        return sendPage(reply, 200, fragmentReturnPage(v, NETWORK_CALLBACK_PATH, { state }));
      }
      return finished(c, request, reply, request.query);
    },
  );
  // The page's form posts as forms do.
  fastify.register(async (scoped) => {
    await scoped.register(formbody, { bodyLimit: 16 * 1024 });
    const forms = scoped.withTypeProvider<TypeBoxTypeProvider>();
    const schema = { ...hide, body: Type.Object(networkReturnFields) };
    forms.post(NETWORK_CALLBACK_PATH, { schema }, (request, reply) =>
      finished(c, request, reply, request.body),
    );
  });

  app.get(
    '/.well-known/network-verification-jwks.json',
    {
      schema: {
        tags: ['REST'],
        summary: 'The public key a mobile operator registers for Callsign',
        hide: true,
      },
    },
    async (_request, reply) => {
      const key = c.operatorClientKey;
      if (!key) return reply.status(404).send({ keys: [] });
      return reply.header('Cache-Control', 'public, max-age=3600').send({ keys: [key.publicJwk] });
    },
  );
}
