import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../composition/container.ts';
import { NETWORK_CALLBACK_PATH } from '../composition/network-verification.ts';

// The files that let the native apps of ANDROID_APPS and IOS_APPS use this domain: Android's Digital Asset
// Links (`assetlinks.json`: its passkeys through Credential Manager, and its links) and Apple's app-site
// association (`webcredentials`: its passkeys; `applinks`: the links an app may open instead of a browser).
// Each is answered where the platforms fetch it, as JSON, never redirected; with no apps, there is none.

/** The services these routes use. */
type Services = Pick<Container, 'config'>;

/** The relations an Android app is granted: the domain's passkeys, and its links. */
export const ANDROID_RELATIONS = [
  'delegate_permission/common.get_login_creds',
  'delegate_permission/common.handle_all_urls',
];

/**
 * The paths an iOS app may open in place of a browser: where a silent check by the mobile network comes back,
 * so that an app that opened the check in a browser is brought back to itself.
 */
export const IOS_APP_LINK_PATHS = [NETWORK_CALLBACK_PATH];

const none = Type.Object({}, { description: 'no apps are configured' });
const statement = Type.Object({
  relation: Type.Array(Type.String()),
  target: Type.Object({
    namespace: Type.Literal('android_app'),
    package_name: Type.String(),
    sha256_cert_fingerprints: Type.Array(Type.String()),
  }),
});
const association = Type.Object({
  applinks: Type.Object({
    details: Type.Array(
      Type.Object({
        appIDs: Type.Array(Type.String()),
        components: Type.Array(Type.Object({ '/': Type.String() })),
      }),
    ),
  }),
  webcredentials: Type.Object({ apps: Type.Array(Type.String()) }),
});

export function appAssociationRoutes(app: FastifyInstance, c: Services) {
  const { androidApps, iosApps } = c.config;
  const hide = { tags: ['Native apps'] };
  app.get(
    '/.well-known/assetlinks.json',
    {
      schema: {
        ...hide,
        summary: 'Android’s Digital Asset Links for ANDROID_APPS',
        response: { 200: Type.Array(statement), 404: none },
      },
    },
    async (_request, reply) => {
      if (!androidApps.length) return reply.status(404).type('application/json').send({});
      const statements = androidApps.map((a) => ({
        relation: ANDROID_RELATIONS,
        target: {
          namespace: 'android_app' as const,
          package_name: a.packageName,
          sha256_cert_fingerprints: [a.sha256],
        },
      }));
      return reply.type('application/json').header('Cache-Control', 'public, max-age=3600').send(statements);
    },
  );
  app.get(
    '/.well-known/apple-app-site-association',
    {
      schema: {
        ...hide,
        summary: 'Apple’s app-site association for IOS_APPS',
        response: { 200: association, 404: none },
      },
    },
    async (_request, reply) => {
      if (!iosApps.length) return reply.status(404).type('application/json').send({});
      const appIDs = iosApps.map((a) => a.appId);
      return reply
        .type('application/json')
        .header('Cache-Control', 'public, max-age=3600')
        .send({
          applinks: { details: [{ appIDs, components: IOS_APP_LINK_PATHS.map((path) => ({ '/': path })) }] },
          webcredentials: { apps: appIDs },
        });
    },
  );
}
