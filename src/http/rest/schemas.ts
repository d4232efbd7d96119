// JSON Schemas of REST bodies: they validate requests and feed the OpenAPI document. Formats the spec
// gives error codes for (phone, PIN, handle) are checked by the domain, which answers those codes.
export const str = (description: string, extra: Record<string, unknown> = {}) => ({
  type: 'string',
  description,
  ...extra,
});

export const deviceSchema = {
  type: 'object',
  description: 'D18: the device this session is on',
  properties: {
    name: str('device name shown in the session list', { maxLength: 100 }),
    platform: { type: 'string', enum: ['ios', 'android', 'web', 'desktop', 'other'] },
  },
};

export const body = (required: string[], properties: Record<string, unknown>) => ({
  type: 'object',
  required,
  properties,
});

/** Describes the envelope in the OpenAPI document without constraining what is sent. */
export const envelopeResponses = (description: string) => ({
  200: { description, type: 'object', additionalProperties: true },
  '4xx': {
    description: 'error envelope {success: false, error: {code, message, details}}',
    type: 'object',
    additionalProperties: true,
  },
});
