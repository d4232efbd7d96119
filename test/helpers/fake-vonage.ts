import type { KeyObject } from 'node:crypto';
import { randomBytes, randomUUID } from 'node:crypto';
import { jwtVerify } from 'jose';
import { FakeNetworkVendor, type Incoming, refuse, send } from './fake-network-vendor.ts';

// Vonage's Verify v2 silent authentication on 127.0.0.1, as Vonage's API document describes it: requests
// authenticated by the application's JWT (RS256: application_id, iat, jti, exp), a workflow whose first
// channel is `silent_auth` with the number without its "+", one verification in flight per number (409), the
// check URL the device opens (from its address: the number it holds, or Wi-Fi), its end at the redirect URL
// with the request id and code (or the error) in the fragment, and one attempt to submit the code.

const PROBLEM = 'application/problem+json';
const TYPES = 'https://developer.vonage.com/en/api-errors';
/** How long a request stays in flight unless it ends sooner. */
const IN_FLIGHT_MS = 300_000;

interface Request {
  to: string;
  redirectUrl?: string;
  code?: string;
  /** in flight until it completes, fails or expires */
  done: boolean;
  at: number;
}

const problem = (type: string, title: string, detail: string) => ({
  type: `${TYPES}${type}`,
  title,
  detail,
  instance: randomUUID(),
});

export class FakeVonage extends FakeNetworkVendor {
  readonly #requests = new Map<string, Request>();
  readonly #jtis = new Set<string>();

  constructor(
    private readonly app: { applicationId: string; publicKey: KeyObject },
    now?: () => number,
  ) {
    super(now);
  }

  protected async answer(i: Incoming) {
    const redirect = /^\/v2\/verify\/([\w-]+)\/silent-auth\/redirect$/.exec(i.url.pathname);
    if (i.req.method === 'GET' && redirect) return this.#deviceOpens(i, redirect[1]);
    if (!(await this.#authenticated(i)))
      return refuse(i, 401, problem('#unauthorized', 'Unauthorized', 'bad JWT'), 'JWT', PROBLEM);
    if (i.req.method === 'POST' && i.url.pathname === '/v2/verify') return this.#start(i);
    const check = /^\/v2\/verify\/([\w-]+)$/.exec(i.url.pathname);
    if (i.req.method === 'POST' && check) return this.#checkCode(i, check[1]);
    refuse(i, 404, problem('#not-found', 'Not Found', 'no such path'), 'unknown path', PROBLEM);
  }

  async #authenticated(i: Incoming): Promise<boolean> {
    const jwt = /^Bearer (.+)$/.exec(i.req.headers.authorization ?? '')?.[1];
    if (!jwt) return false;
    try {
      const { payload, protectedHeader } = await jwtVerify(jwt, this.app.publicKey, {
        currentDate: new Date(this.now()),
      });
      const fresh = typeof payload.jti === 'string' && !this.#jtis.has(payload.jti);
      if (protectedHeader.alg !== 'RS256' || payload.application_id !== this.app.applicationId || !fresh)
        return false;
      this.#jtis.add(String(payload.jti));
      return typeof payload.iat === 'number';
    } catch {
      return false;
    }
  }

  #start(i: Incoming) {
    let body: { brand?: unknown; workflow?: Array<Record<string, unknown>> } = {};
    try {
      body = JSON.parse(i.raw);
    } catch {}
    const step = Array.isArray(body.workflow) ? body.workflow[0] : undefined;
    const to = String(step?.to ?? '');
    const redirectUrl = step?.redirect_url === undefined ? undefined : String(step.redirect_url);
    const wrong =
      typeof body.brand !== 'string' || !/^[^/{}:$]{1,18}$/.test(body.brand)
        ? 'brand'
        : !step || step.channel !== 'silent_auth' || (body.workflow?.length ?? 0) > 3
          ? 'silent_auth first'
          : !/^[1-9][0-9]{6,14}$/.test(to)
            ? 'to (E.164 without +)'
            : redirectUrl !== undefined && !URL.canParse(redirectUrl)
              ? 'redirect_url'
              : '';
    if (wrong) return refuse(i, 422, problem('#invalid-params', 'Invalid params', wrong), wrong, PROBLEM);
    const now = this.now();
    const inFlight = [...this.#requests.values()].some(
      (r) => r.to === to && !r.done && now - r.at < IN_FLIGHT_MS,
    );
    if (inFlight)
      return send(
        i.res,
        409,
        problem(
          '/verify-v2#concurrent',
          'Conflict',
          'Concurrent verifications to the same number are not allowed.',
        ),
        PROBLEM,
      );
    const id = randomUUID();
    this.#requests.set(id, { to, redirectUrl, done: false, at: now });
    send(i.res, 202, { request_id: id, check_url: `${this.url}/v2/verify/${id}/silent-auth/redirect` });
  }

  /** The device opens the check URL: it ends at the redirect URL, the answer in the fragment. */
  #deviceOpens(i: Incoming, id: string) {
    const r = this.#requests.get(id);
    if (!r || r.done)
      return refuse(i, 404, problem('#not-found', 'Not Found', 'no request'), 'request', PROBLEM);
    const held = this.phones.get(i.address);
    const error =
      held === undefined
        ? 'IP Address does not resolve to a cellular device.'
        : held.replace(/^\+/, '') !== r.to
          ? 'Device MSISDN does not match.'
          : undefined;
    if (error) r.done = true;
    else r.code = randomBytes(6).toString('base64url');
    const fragment = error
      ? new URLSearchParams({ error_description: error })
      : new URLSearchParams({ request_id: id, code: r.code ?? '' });
    if (r.redirectUrl)
      return i.res.writeHead(302, { location: `${r.redirectUrl}#${fragment.toString()}` }).end();
    if (error)
      return send(
        i.res,
        412,
        problem('/verify-v2#precondition-failed', 'Silent authentication failed', error),
        PROBLEM,
      );
    send(i.res, 200, { request_id: id, code: r.code });
  }

  /** The code, submitted once: completed, or the workflow ends. */
  #checkCode(i: Incoming, id: string) {
    if (this.hangCheck) return;
    if (this.failCheckWith)
      return refuse(
        i,
        this.failCheckWith,
        problem('#internal-error', 'Internal error', 'down'),
        'failing',
        PROBLEM,
      );
    const r = this.#requests.get(id);
    let code: unknown;
    try {
      code = JSON.parse(i.raw).code;
    } catch {}
    if (!r || r.done || !r.code)
      return refuse(
        i,
        404,
        problem('/verify-v2#request-not-found', 'Not Found', 'no request'),
        'request',
        PROBLEM,
      );
    r.done = true;
    if (code !== r.code)
      return refuse(i, 400, problem('/verify-v2#invalid-code', 'Invalid Code', 'no match'), 'code', PROBLEM);
    send(i.res, 200, { request_id: id, status: 'completed' });
  }
}
