import assert from 'node:assert/strict';
import { test } from 'node:test';
import { maskedAddress } from '../../src/http/pages/console/layout.ts';

// Operators see where a session came from, not which device: an IPv4 address to its /24, an IPv6 one to its /64.

test('a session’s address is shown as its network', () => {
  assert.equal(maskedAddress('203.0.113.77'), '203.0.113.0/24');
  assert.equal(maskedAddress('2001:db8:85a3:1:aaaa:bbbb:cccc:dddd'), '2001:db8:85a3:1::/64');
  assert.equal(maskedAddress('2001:db8::1'), '2001:db8::/64');
  assert.equal(maskedAddress(null), '–');
});
