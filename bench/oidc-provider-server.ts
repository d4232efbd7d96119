import { generateKeyPairSync } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { exportJWK } from 'jose';
import Provider from 'oidc-provider';

// panva's oidc-provider on the refresh grant, for comparison (issue 4): rotating refresh tokens, its
// default in-memory adapter, one process. Its refresh answer carries an RS256 ID token (one signature) and
// an opaque access token. Reports its port over IPC, and mints one refresh token per lane when asked.
const lanes = Number(process.argv[2] ?? 64);

/** Its default memory adapter is an LRU of 1000 entries, which evicts grants mid-run: keep everything. */
class MapAdapter {
  static store = new Map<string, Record<string, unknown>>();
  constructor(private readonly model: string) {}
  private key(id: string) {
    return `${this.model}:${id}`;
  }
  async upsert(id: string, payload: Record<string, unknown>) {
    MapAdapter.store.set(this.key(id), payload);
    if (payload.grantId)
      MapAdapter.store.set(`grant:${payload.grantId}:${this.key(id)}`, { id: this.key(id) });
  }
  async find(id: string) {
    return MapAdapter.store.get(this.key(id));
  }
  async findByUid() {
    return undefined;
  }
  async findByUserCode() {
    return undefined;
  }
  async consume(id: string) {
    const p = MapAdapter.store.get(this.key(id));
    if (p) p.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id: string) {
    MapAdapter.store.delete(this.key(id));
  }
  async revokeByGrantId(grantId: string) {
    for (const k of MapAdapter.store.keys()) {
      if (k.startsWith(`grant:${grantId}:`))
        MapAdapter.store.delete((MapAdapter.store.get(k) as { id: string }).id);
    }
  }
}
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwk = { ...(await exportJWK(privateKey)), use: 'sig', alg: 'RS256', kid: 'bench' };
const provider = new Provider('http://127.0.0.1', {
  clients: [
    {
      client_id: 'bench',
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      redirect_uris: ['http://127.0.0.1:9/callback'],
    },
  ],
  jwks: { keys: [jwk] },
  adapter: MapAdapter,
  rotateRefreshToken: true,
  findAccount: async (_ctx: unknown, id: string) => ({ accountId: id, claims: async () => ({ sub: id }) }),
});
const server = provider.listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));

const client = await provider.Client.find('bench');
/** A refresh token for each lane, each of a grant of its own. */
async function mint(): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < lanes; i++) {
    const grant = new provider.Grant({ accountId: `user${i}`, clientId: 'bench' });
    grant.addOIDCScope('openid');
    const grantId = await grant.save();
    const token = new provider.RefreshToken({
      client,
      accountId: `user${i}`,
      grantId,
      scope: 'openid',
      gty: 'authorization_code',
      authTime: Math.floor(Date.now() / 1000),
    });
    tokens.push(await token.save());
  }
  return tokens;
}
// Each closed loop starts with chains of its own: one cut off by the end of a loop leaves its last token
// used and its successor unread.
process.on('message', async () => process.send?.(await mint()));
process.send?.({ port: (server.address() as AddressInfo).port });
