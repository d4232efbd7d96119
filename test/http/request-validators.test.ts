import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Type } from 'typebox';
import { requestValidators } from '../../src/http/plugins/request-validators.ts';

// The routes' request validators are compiled once for the process: an app built again (every test builds
// one) finds the validator of a schema that says the same as one compiled before, under the same options.

type Validate = (value: unknown) => boolean;
const OPTIONS = { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } };
const COERCING = { customOptions: { coerceTypes: true, removeAdditional: false, allErrors: false } };

/** The validator an app's route gets for `schema`, as Fastify asks for it. */
function validatorOf(options: typeof OPTIONS, schema: unknown): Validate {
  const compile = requestValidators({}, options) as unknown as (part: object) => Validate;
  return compile({ schema, method: 'POST', url: '/signin', httpPart: 'body' });
}

const pinBody = () =>
  Type.Object({ pin: Type.String({ pattern: '^[0-9]{6}$' }) }, { additionalProperties: false });

describe('request validators, one set for the process', () => {
  test('a schema built again for a second app gets the validator compiled for the first', () => {
    const first = validatorOf(OPTIONS, pinBody());
    const second = validatorOf(OPTIONS, pinBody());
    assert.equal(second, first);
    assert.equal(first({ pin: '123456' }), true);
    assert.equal(first({ pin: '12345' }), false);
  });

  test('a schema that says something else gets a validator of its own', () => {
    const pin = validatorOf(OPTIONS, pinBody());
    const code = validatorOf(OPTIONS, Type.Object({ code: Type.String() }, { additionalProperties: false }));
    assert.notEqual(code, pin);
    assert.equal(code({ code: '1234' }), true);
    assert.equal(code({ pin: '123456' }), false);
  });

  test('the same schema under other options is compiled under those options', () => {
    const count = Type.Object({ count: Type.Integer() });
    const strict = validatorOf(OPTIONS, count);
    const coercing = validatorOf(COERCING, count);
    assert.notEqual(coercing, strict);
    assert.equal(strict({ count: '5' }), false, 'strings stay strings');
    assert.equal(coercing({ count: '5' }), true);
  });
});
