import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { startCliServer } from '../helpers/cli-server.ts';
import { photo } from '../helpers/kyc.ts';

const PHONES = ['+14155550101', '+14155550102'];

test("`callsign kyc list|show|approve|reject` review the running server's queue", async () => {
  const {
    base,
    dataDir,
    cli: run,
    stop,
  } = await startCliServer('kyc-cli', {
    TEST_PHONE_NUMBERS: PHONES.map((p) => `${p}=000000`).join(','),
  });
  const cli = (...args: string[]) => run('kyc', ...args);
  const post = async (path: string, body: unknown, token?: string) =>
    (
      await (
        await fetch(`${base}${path}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify(body),
        })
      ).json()
    ).data;
  const document = await photo('jpeg');
  /** A user who signs up and submits the verification form, as a browser would. */
  const submit = async (phone: string, handle: string) => {
    await post('/auth/otp/send', { phone, purpose: 'signup' });
    const { temp_token } = await post('/auth/otp/verify', { phone, purpose: 'signup', code: '000000' });
    const { access_token } = await post('/auth/signup', { temp_token, pin: '482916', handle });
    const { verification_url } = await post('/kyc/initiate', undefined, access_token);
    const page = await fetch(verification_url);
    const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0];
    const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
    const form = new FormData();
    for (const [k, v] of Object.entries({
      csrf,
      country: 'SE',
      birthday: '1979-09-09',
      document_kind: 'national_id',
    }))
      form.append(k, v);
    form.append('document', new Blob([document], { type: 'image/jpeg' }), 'id.jpg');
    const res = await fetch(verification_url, { method: 'POST', body: form, headers: { cookie } });
    assert.equal(res.status, 200, await res.text());
  };
  try {
    await submit(PHONES[0], 'kyc_cli_one');
    await submit(PHONES[1], 'kyc_cli_two');
    const list = JSON.parse(cli('list', '--json').out).data;
    assert.equal(list.length, 2);
    assert.match(cli('list').out, new RegExp(`${list[0].id}\\s+pending\\s+basic\\s+SE\\s+national_id`));

    const photos = join(dataDir, 'review');
    const shown = cli('show', list[0].id, '--save-photos', photos);
    assert.equal(shown.code, 0, shown.err);
    assert.match(shown.out, /user: .+\+14155550101/);
    const [saved] = readdirSync(photos);
    assert.match(saved, /^document-.+\.jpg$/);
    assert.ok(readFileSync(join(photos, saved)).equals(document), 'the operator sees the photo as submitted');

    assert.match(cli('approve', list[0].id).out, /verified/);
    const bad = cli('reject', list[1].id, '--reason', 'blurry');
    assert.equal(bad.code, 1);
    assert.match(bad.err, /invalid_request/);
    assert.match(
      cli('reject', list[1].id, '--reason', 'data_mismatch', '--message', 'Name differs').out,
      /rejected/,
    );
    assert.equal(cli('list').out.trim(), 'no verifications', 'the queue is empty');
    assert.equal(
      JSON.parse(cli('list', '--status', 'rejected', '--json').out).data[0].message,
      'Name differs',
    );
    const late = cli('approve', list[1].id);
    assert.equal(late.code, 1);
    assert.match(late.err, /only a pending verification/);
  } finally {
    await stop();
  }
});
