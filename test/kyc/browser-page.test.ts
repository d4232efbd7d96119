import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { createTestApp, signUp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { freePort } from '../helpers/free-port.ts';
import { photo } from '../helpers/kyc.ts';

let t: TestApp;
let browser: Browser;
before(async () => {
  const port = await freePort();
  t = await createTestApp({ env: { VERIFY_URL: `http://127.0.0.1:${port}` } });
  await t.app.listen({ port, host: '127.0.0.1' });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await t?.close();
});

test('the verification page in a real Chromium, from initiate to submission, by its labels', async () => {
  const s = await signUp(t);
  const { verification_url } = (await t.request('POST', '/kyc/initiate', { token: s.access_token })).body
    .data;
  const page = await browser.newPage();
  try {
    await page.goto(verification_url);
    assert.equal(await page.getByRole('heading').textContent(), 'Verify your identity');

    // Under 18: the date picker's limit stops the form in the browser; nothing is submitted.
    const now = t.clock.now();
    await page.getByLabel('Country').selectOption('NL');
    await page.getByLabel('Date of birth').fill(`${now.getUTCFullYear() - 16}-05-05`);
    await page.getByLabel('Document type').selectOption({ label: 'Driving licence' });
    await page.getByLabel('Document photo').setInputFiles([
      { name: 'front.jpg', mimeType: 'image/jpeg', buffer: await photo('jpeg') },
      { name: 'back.png', mimeType: 'image/png', buffer: await photo('png') },
    ]);
    await page
      .getByLabel('Selfie')
      .setInputFiles({ name: 'me.webp', mimeType: 'image/webp', buffer: await photo('webp') });
    await page.getByRole('button', { name: 'Submit' }).click();
    assert.equal(await page.getByRole('heading').textContent(), 'Verify your identity');
    assert.equal(
      await page
        .getByLabel('Date of birth')
        .evaluate((el) => (el as HTMLInputElement).validity.rangeOverflow),
      true,
    );
    const before = (await t.request('GET', '/kyc/status', { token: s.access_token })).body.data;
    assert.equal(before.status, 'none');

    await page.getByLabel('Date of birth').fill('1988-11-30');
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Submit' }).click()]);
    await page.getByRole('heading', { name: 'Thank you' }).waitFor();
    assert.match((await page.locator('main').textContent()) ?? '', /submitted and will be reviewed/);

    const [v] = await t.c.kyc.list('pending');
    assert.equal(v.user_id, s.user.id);
    assert.equal(v.country, 'NL');
    assert.equal(v.birthday, '1988-11-30');
    assert.equal(v.document_kind, 'driving_licence');
    assert.equal(v.level, 'full');
    const { photos } = await t.c.kyc.review(v.id);
    assert.deepEqual(photos.map((p) => `${p.kind}:${p.content_type}`).sort(), [
      'document:image/jpeg',
      'document:image/png',
      'selfie:image/webp',
    ]);

    // The same link again: a clear page.
    await page.goto(verification_url);
    assert.equal(await page.getByRole('heading').textContent(), 'Link already used');
  } finally {
    await page.close();
  }
});
