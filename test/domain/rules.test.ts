import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { assertAcceptablePin } from '../../src/domain/accounts/pin-rules.ts';
import { deviceOf, maskIp } from '../../src/domain/accounts/sign-in.ts';
import { newClientId } from '../../src/domain/clients/client-rules.ts';
import { decrypt, deriveKey, encrypt } from '../../src/domain/crypto.ts';
import type { DomainError } from '../../src/domain/errors.ts';
import { maskPhone, parsePhone } from '../../src/domain/phone.ts';
import { handleProblem } from '../../src/domain/profiles/handle-rules.ts';

const code = (fn: () => unknown) => {
  try {
    fn();
    return null;
  } catch (err) {
    return (err as DomainError).code;
  }
};

describe('domain rules', () => {
  test('phones normalise to E.164 and keep their region', () => {
    assert.deepEqual(parsePhone('+1 415 555 0100'), { e164: '+14155550100', country: 'US' });
    assert.deepEqual(parsePhone('+44 20 7183 8750'), { e164: '+442071838750', country: 'GB' });
    for (const bad of ['4155550100', '+1415', '', null, 42, '+1 415 555 0100 ext 9'.repeat(3)]) {
      assert.equal(
        code(() => parsePhone(bad)),
        'INVALID_PHONE',
        String(bad),
      );
    }
    assert.equal(maskPhone('+14155550100'), '+1******0100');
  });

  test('PINs: 4-6 ASCII digits, no repeats, runs or common PINs', () => {
    for (const ok of ['4829', '48291', '482916', '0931', '739164'])
      assert.equal(
        code(() => assertAcceptablePin(ok)),
        null,
        ok,
      );
    const blocked = [
      '0000',
      '11111',
      '999999',
      '1234',
      '12345',
      '123456',
      '4321',
      '654321',
      '0123',
      '9876',
      '6789',
      '7890',
      '0987',
    ];
    const common = ['1212', '1004', '2000', '6969', '1122', '4321', '2580', '5683', '112233', '121212'];
    for (const bad of [...blocked, ...common, '123', '1234567', 'abcd', ' 1234', '١٢٣٤', undefined]) {
      assert.equal(
        code(() => assertAcceptablePin(bad)),
        'INVALID_PIN',
        String(bad),
      );
    }
  });

  test('handle rules', () => {
    assert.equal(handleProblem('alice_99'), null);
    assert.equal(handleProblem('abc'), null);
    assert.equal(handleProblem('a'.repeat(30)), null);
    for (const bad of ['ab', 'a'.repeat(31), 'Alice', '9lives', '_x_', 'al.ice', 'al-ice', ''])
      assert.equal(handleProblem(bad), 'invalid', bad);
    for (const r of [
      'admin',
      'root',
      'support',
      'api',
      'auth',
      'oauth',
      'login',
      'signup',
      'help',
      'security',
      'settings',
      'system',
      'www',
    ]) {
      assert.equal(handleProblem(r), 'reserved', r);
    }
  });

  test('addresses are masked: IPv4 keeps 3 octets, IPv6 48 bits', () => {
    assert.equal(maskIp('203.0.113.77'), '203.0.113.*');
    assert.equal(maskIp('::ffff:203.0.113.77'), '203.0.113.*');
    assert.equal(maskIp('2001:db8:85a3:8d3:1319:8a2e:370:7348'), '2001:db8:85a3:*');
    assert.equal(maskIp('2001:db8::1'), '2001:db8:0:*');
    assert.equal(maskIp('::1'), '0:0:0:*');
  });

  test('a device defaults to platform other, and a blank name is none', () => {
    assert.deepEqual(deviceOf(undefined), { name: null, platform: 'other' });
    assert.deepEqual(deviceOf({ name: ' Pixel ', platform: 'android' }), {
      name: 'Pixel',
      platform: 'android',
    });
    assert.deepEqual(deviceOf({ name: '  ' }), { name: null, platform: 'other' });
  });

  test('encryption at rest round-trips and detects tampering', () => {
    const key = deriveKey(Buffer.alloc(32, 1), 'test');
    const box = encrypt(key, Buffer.from('secret'));
    assert.equal(decrypt(key, box).toString(), 'secret');
    const parts = box.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    assert.throws(() => decrypt(key, parts.join('.')));
    assert.throws(() => decrypt(deriveKey(Buffer.alloc(32, 2), 'test'), box));
  });

  test('every seal has an IV of its own, across refills of the pool of random bytes', () => {
    const key = deriveKey(Buffer.alloc(32, 1), 'test');
    const ivs = new Set<string>();
    for (let i = 0; i < 2000; i++) ivs.add(encrypt(key, Buffer.from('123456')).split('.')[1]);
    assert.equal(ivs.size, 2000);
  });
});

test('a client_id never starts with "-", which the CLI would read as an option', () => {
  const tokens = ['-AbCdEfGhIjKlMnOpQrStUv', '-x', 'AbCdEfGhIjKlMnOpQrStUv'];
  assert.equal(
    newClientId(() => tokens.shift() as string),
    'AbCdEfGhIjKlMnOpQrStUv',
  );
  assert.deepEqual(tokens, []);
});
