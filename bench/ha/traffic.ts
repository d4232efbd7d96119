import { randomInt } from 'node:crypto';
import { parsePhone } from '../../src/domain/phone.ts';
import type { SmsReceiver } from '../../test/helpers/sms-receiver.ts';
import { oauthLane } from './oauth-lane.ts';

// A steady mixed load through the load balancer, as clients send it: sign-ups with codes texted to a local
// gateway, PIN sign-ins, REST refreshes, and OAuth code exchanges and refreshes of a first-party app. Every
// answer is written down with its time, and every client keeps what it was last given, so that the run can
// count afterwards what a fault lost.

/** A request that waits longer than this has hung. */
export const HUNG_MS = 10_000;
export const PIN = '480715';

export interface Answered {
  at: number;
  what: string;
  /** the HTTP status, or 0 for no answer (the connection refused or cut, or hung) */
  status: number;
  ms: number;
}

/** A refresh chain a client holds: the last tokens it was given, and whether the last try left it unsure. */
export interface Chain {
  kind: 'rest' | 'oauth';
  phone: string;
  /** the latest refresh token */
  token: string;
  /** the one before it, which the latest replaced */
  previous?: string;
  /** the latest access token: the session it names must still stand */
  access: string;
  /** a refresh was sent and its answer lost: the token may have been rotated without the client knowing */
  unsure: boolean;
}

export interface Ledger {
  answers: Answered[];
  chains: Chain[];
  /** the accounts the service said it made: phone and handle */
  accounts: Array<{ phone: string; handle: string }>;
  /** codes (sign-up codes and OAuth authorization codes) that were accepted a second time */
  codesUsedTwice: number;
  /** the first few answers of each failing status: what said it */
  failures: Map<number, string[]>;
  /** what surprised the client itself, such as a code it was told was sent and that never came */
  surprises: string[];
}

export interface Reply {
  status: number;
  text: string;
  headers: Headers | undefined;
  /** the `data` of a JSON answer */
  data: Record<string, string> | undefined;
}

/** A request as a client sends it: JSON or a form, a bearer token, cookies; redirects are not followed. */
export interface Ask {
  method?: 'GET' | 'POST';
  json?: unknown;
  form?: Record<string, string>;
  bearer?: string;
  cookie?: string;
}

function phone(): string {
  for (;;) {
    try {
      return parsePhone(`+1650${randomInt(2_000_000, 9_999_999)}`).e164;
    } catch {}
  }
}

export function traffic(base: string, sms: SmsReceiver, clientId: string) {
  const ledger: Ledger = {
    answers: [],
    chains: [],
    accounts: [],
    codesUsedTwice: 0,
    failures: new Map(),
    surprises: [],
  };
  let running = true;

  function note(status: number, said: string) {
    const seen = ledger.failures.get(status) ?? [];
    if (seen.length < 3) ledger.failures.set(status, [...seen, said]);
  }

  async function call(what: string, path: string, ask: Ask = {}): Promise<Reply> {
    const started = Date.now();
    const reply: Reply = { status: 0, text: '', headers: undefined, data: undefined };
    const headers: Record<string, string> = {};
    if (ask.json !== undefined) headers['content-type'] = 'application/json';
    if (ask.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    if (ask.bearer) headers.authorization = `Bearer ${ask.bearer}`;
    if (ask.cookie) headers.cookie = ask.cookie;
    try {
      const res = await fetch(`${base}${path}`, {
        method: ask.method ?? 'POST',
        headers,
        body: ask.form
          ? new URLSearchParams(ask.form)
          : ask.json === undefined
            ? undefined
            : JSON.stringify(ask.json),
        redirect: 'manual',
        signal: AbortSignal.timeout(HUNG_MS),
      });
      reply.status = res.status;
      reply.headers = res.headers;
      reply.text = await res.text();
      if (res.headers.get('content-type')?.includes('json'))
        reply.data = (JSON.parse(reply.text || '{}') as { data?: Record<string, string> }).data;
      if (reply.status >= 500) note(reply.status, `${what}: ${reply.text.slice(0, 200)}`);
    } catch (err) {
      if (reply.status === 0) note(0, `${what}: ${(err as Error).message}`);
    }
    ledger.answers.push({ at: started, what, status: reply.status, ms: Date.now() - started });
    return reply;
  }

  async function signUp() {
    const number = phone();
    if (
      (await call('otp send', '/auth/otp/send', { json: { phone: number, purpose: 'signup' } })).status !==
      200
    )
      return;
    const code = sms.lastCode(number);
    const verify = { json: { phone: number, code, purpose: 'signup' } };
    const verified = await call('otp verify', '/auth/otp/verify', verify);
    if (verified.status !== 200 || !verified.data) return;
    // The same code a second time must be refused, whatever happened meanwhile.
    if ((await call('otp verify again', '/auth/otp/verify', verify)).status === 200) ledger.codesUsedTwice++;
    const handle = `ha_${number.slice(-7)}`;
    const made = await call('sign-up', '/auth/signup', {
      json: { temp_token: verified.data.temp_token, pin: PIN, handle },
    });
    if (made.status !== 200 || !made.data) return;
    ledger.accounts.push({ phone: number, handle });
    ledger.chains.push(restChain(number, made.data));
  }

  const restChain = (number: string, data: Record<string, string>): Chain => ({
    kind: 'rest',
    phone: number,
    token: data.refresh_token,
    access: data.access_token,
    unsure: false,
  });

  async function signIn() {
    const chain = ledger.chains[randomInt(ledger.chains.length)];
    const r = await call('sign-in', '/auth/signin', { json: { phone: chain.phone, pin: PIN } });
    if (r.status === 200 && r.data) ledger.chains.push(restChain(chain.phone, r.data));
  }

  /** A chain's refresh, as its kind of client sends it; the client keeps what it is given. */
  async function refresh(chain: Chain, what = 'refresh') {
    const r =
      chain.kind === 'rest'
        ? await call(what, '/auth/refresh', { json: { refresh_token: chain.token } })
        : await call(`oauth ${what}`, '/oauth/token', {
            form: { grant_type: 'refresh_token', client_id: clientId, refresh_token: chain.token },
          });
    const answer = chain.kind === 'rest' ? r.data : r.status === 200 ? JSON.parse(r.text) : undefined;
    if (r.status === 200 && answer) {
      chain.previous = chain.token;
      chain.token = answer.refresh_token;
      chain.access = answer.access_token;
      chain.unsure = false;
    } else if (r.status === 0 || r.status >= 500) chain.unsure = true;
    return r.status;
  }

  /** One lane: a client doing one thing at a time; it refreshes the chains whose index is n modulo lanes. */
  async function lane(n: number, lanes: number) {
    while (running) {
      const pick = randomInt(10);
      if (ledger.chains.length < 20 || pick < 2) await signUp();
      else if (pick < 4) await signIn();
      else {
        const mine = ledger.chains.filter((c, i) => i % lanes === n && c.kind === 'rest');
        if (mine.length > 0) await refresh(mine[randomInt(mine.length)]);
      }
    }
  }

  /** Runs a lane, writing down what surprised the client (a code said sent that never came) and going on. */
  async function steady(step: () => Promise<void>) {
    while (running)
      await step().catch((err: Error) => {
        ledger.surprises.push(err.message);
      });
  }

  let lanes: Promise<void>[] = [];
  return {
    ledger,
    call,
    start(restLanes: number, oauthLanes: number) {
      const oauth = oauthLane(call, ledger, clientId, refresh);
      lanes = [
        ...Array.from({ length: restLanes }, (_, n) => steady(() => lane(n, restLanes))),
        ...Array.from({ length: oauthLanes }, () => steady(() => oauth(() => running))),
      ];
    },
    async stop() {
      running = false;
      await Promise.all(lanes);
    },
    refresh,
  };
}
