import { randomInt } from 'node:crypto';
import { parsePhone } from '../../src/domain/phone.ts';
import type { SmsReceiver } from '../../test/helpers/sms-receiver.ts';

// A steady mixed load through the load balancer, as clients send it: sign-ups with codes texted to a local
// gateway, PIN sign-ins and REST refreshes. Every answer is written down with its time, and every client keeps
// what it was last given, so that the run can count afterwards what a fault lost.

/** A request that waits longer than this has hung. */
export const HUNG_MS = 10_000;
const PIN = '480715';

export interface Answered {
  at: number;
  what: string;
  /** the HTTP status, or 0 for no answer (the connection refused or cut, or hung) */
  status: number;
  ms: number;
}

/** A refresh chain a client holds: the last token it was given, and whether the last try left it unsure. */
interface Chain {
  phone: string;
  token: string;
  /** a refresh was sent and its answer lost: the token may have been rotated without the client knowing */
  unsure: boolean;
}

export interface Ledger {
  answers: Answered[];
  chains: Chain[];
  /** codes that were accepted a second time */
  codesUsedTwice: number;
  /** the first few answers of each failing status: what said it */
  failures: Map<number, string[]>;
}

function phone(): string {
  for (;;) {
    try {
      return parsePhone(`+1650${randomInt(2_000_000, 9_999_999)}`).e164;
    } catch {}
  }
}

export function traffic(base: string, sms: SmsReceiver) {
  const ledger: Ledger = { answers: [], chains: [], codesUsedTwice: 0, failures: new Map() };
  let running = true;

  function note(status: number, said: string) {
    const seen = ledger.failures.get(status) ?? [];
    if (seen.length < 3) ledger.failures.set(status, [...seen, said]);
  }

  async function call(what: string, path: string, body: unknown) {
    const started = Date.now();
    let status = 0;
    let data: Record<string, string> | undefined;
    try {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(HUNG_MS),
      });
      status = res.status;
      const text = await res.text();
      data = (JSON.parse(text || '{}') as { data?: Record<string, string> }).data;
      if (status >= 500) note(status, `${what}: ${text.slice(0, 200)}`);
    } catch (err) {
      if (status === 0) note(0, `${what}: ${(err as Error).message}`);
    }
    ledger.answers.push({ at: started, what, status, ms: Date.now() - started });
    return { status, data };
  }

  async function signUp() {
    const number = phone();
    if ((await call('otp send', '/auth/otp/send', { phone: number, purpose: 'signup' })).status !== 200)
      return;
    const code = sms.lastCode(number);
    const verify = { phone: number, code, purpose: 'signup' };
    const verified = await call('otp verify', '/auth/otp/verify', verify);
    if (verified.status !== 200 || !verified.data) return;
    // The same code a second time must be refused, whatever happened meanwhile.
    if ((await call('otp verify again', '/auth/otp/verify', verify)).status === 200) ledger.codesUsedTwice++;
    const made = await call('sign-up', '/auth/signup', {
      temp_token: verified.data.temp_token,
      pin: PIN,
      handle: `ha_${number.slice(-7)}`,
    });
    if (made.status === 200 && made.data)
      ledger.chains.push({ phone: number, token: made.data.refresh_token, unsure: false });
  }

  async function signIn() {
    const chain = ledger.chains[randomInt(ledger.chains.length)];
    const r = await call('sign-in', '/auth/signin', { phone: chain.phone, pin: PIN });
    if (r.status === 200 && r.data)
      ledger.chains.push({ phone: chain.phone, token: r.data.refresh_token, unsure: false });
  }

  async function refresh(chain: Chain) {
    const r = await call('refresh', '/auth/refresh', { refresh_token: chain.token });
    if (r.status === 200 && r.data) {
      chain.token = r.data.refresh_token;
      chain.unsure = false;
    } else if (r.status === 0 || r.status >= 500) chain.unsure = true;
  }

  /** One lane: a client doing one thing at a time; lane n refreshes the chains whose index is n modulo lanes. */
  async function lane(n: number, lanes: number) {
    while (running) {
      const pick = randomInt(10);
      if (ledger.chains.length < 20 || pick < 2) await signUp();
      else if (pick < 4) await signIn();
      else {
        const mine = ledger.chains.filter((_, i) => i % lanes === n);
        if (mine.length > 0) await refresh(mine[randomInt(mine.length)]);
      }
    }
  }

  let lanes: Promise<void>[] = [];
  return {
    ledger,
    start(count: number) {
      lanes = Array.from({ length: count }, (_, n) => lane(n, count));
    },
    async stop() {
      running = false;
      await Promise.all(lanes);
    },
    /**
     * Each chain the client is sure of is refreshed once more: a refusal is a chain the faults broke. Answers
     * how many were refused, and how many chains were left unsure (an answer lost after the rotation).
     */
    async brokenChains() {
      let broken = 0;
      const sure = ledger.chains.filter((c) => !c.unsure);
      for (let i = 0; i < sure.length; i += 20) {
        const answers = await Promise.all(
          sure
            .slice(i, i + 20)
            .map((chain) => call('final refresh', '/auth/refresh', { refresh_token: chain.token })),
        );
        broken += answers.filter((r) => r.status !== 200).length;
      }
      return { broken, checked: sure.length, unsure: ledger.chains.length - sure.length };
    },
  };
}
