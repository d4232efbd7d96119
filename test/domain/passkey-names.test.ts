import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { deviceOfUserAgent, passkeyNameOf } from '../../src/domain/passkeys/passkey-names.ts';

const UA = {
  chromeAndroid:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
  samsung:
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
  firefoxMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0',
  headless:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36',
};

describe('the name of a passkey nobody named', () => {
  test('a known authenticator by its AAGUID, whatever the browser', () => {
    assert.equal(
      passkeyNameOf({ aaguid: 'EA9B8D66-4D01-1D21-3CE4-B6B48CB575D4', userAgent: UA.chromeAndroid }),
      'Google Password Manager',
    );
    assert.equal(passkeyNameOf({ aaguid: 'fbfc3007-154e-4ecc-8c0b-6e020557d7bd' }), 'iCloud Keychain');
  });

  test('else the browser and system of the user agent (Edge and Samsung Internet are not Chrome; Android is not Linux)', () => {
    const zeros = '00000000-0000-0000-0000-000000000000';
    assert.equal(passkeyNameOf({ aaguid: zeros, userAgent: UA.chromeAndroid }), 'Chrome · Android');
    assert.equal(deviceOfUserAgent(UA.safariIphone), 'Safari · iPhone');
    assert.equal(deviceOfUserAgent(UA.edgeWindows), 'Edge · Windows');
    assert.equal(deviceOfUserAgent(UA.samsung), 'Samsung Internet · Android');
    assert.equal(deviceOfUserAgent(UA.firefoxMac), 'Firefox · Mac');
    assert.equal(deviceOfUserAgent(UA.headless), 'Chrome · Linux');
    assert.equal(deviceOfUserAgent('okhttp/4.12.0'), undefined);
  });

  test('else "Passkey"', () => {
    assert.equal(passkeyNameOf({}), 'Passkey');
    assert.equal(passkeyNameOf({ userAgent: 'curl/8.5.0' }), 'Passkey');
  });
});
