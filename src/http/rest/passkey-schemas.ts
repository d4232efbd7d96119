// The WebAuthn JSON a browser's `navigator.credentials` calls take and give (as @simplewebauthn/browser
// serialises them), and the passkey the REST surface answers. A ceremony's answer is checked by the
// library against what was asked; these schemas check only its JSON shape.
import { Type } from 'typebox';
import { dateTime, nullable } from '../openapi-types.ts';

const base64url = (description: string) => Type.String({ description, maxLength: 16_384 });

const Transport = Type.Enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

const Extensions = Type.Record(Type.String(), Type.Unknown(), { description: 'clientExtensionResults' });

const Attachment = Type.Optional(Type.Enum(['platform', 'cross-platform']));

/** `RegistrationResponseJSON`: what `navigator.credentials.create()` answered. */
export const RegistrationResponse = Type.Object(
  {
    id: base64url('the credential id'),
    rawId: base64url('the credential id'),
    response: Type.Object({
      clientDataJSON: base64url('the client data'),
      attestationObject: base64url('the attestation object'),
      authenticatorData: Type.Optional(base64url('the authenticator data')),
      transports: Type.Optional(Type.Array(Transport, { maxItems: 10 })),
      publicKeyAlgorithm: Type.Optional(Type.Integer()),
      publicKey: Type.Optional(base64url('the public key, SPKI')),
    }),
    authenticatorAttachment: Attachment,
    clientExtensionResults: Extensions,
    type: Type.Literal('public-key'),
  },
  { description: 'RegistrationResponseJSON, as @simplewebauthn/browser startRegistration() answers it' },
);

/** `AuthenticationResponseJSON`: what `navigator.credentials.get()` answered. */
export const AuthenticationResponse = Type.Object(
  {
    id: base64url('the credential id'),
    rawId: base64url('the credential id'),
    response: Type.Object({
      clientDataJSON: base64url('the client data'),
      authenticatorData: base64url('the authenticator data'),
      signature: base64url('the signature'),
      userHandle: Type.Optional(base64url('the account the passkey was made for')),
    }),
    authenticatorAttachment: Attachment,
    clientExtensionResults: Extensions,
    type: Type.Literal('public-key'),
  },
  { description: 'AuthenticationResponseJSON, as @simplewebauthn/browser startAuthentication() answers it' },
);

const Requirement = Type.Enum(['discouraged', 'preferred', 'required']);

const ExtensionInputs = Type.Object({
  appid: Type.Optional(Type.String()),
  credProps: Type.Optional(Type.Boolean()),
  hmacCreateSecret: Type.Optional(Type.Boolean()),
  minPinLength: Type.Optional(Type.Boolean()),
});

const Descriptor = Type.Object({
  id: Type.String(),
  type: Type.Literal('public-key'),
  transports: Type.Optional(Type.Array(Transport)),
});

/** `PublicKeyCredentialCreationOptionsJSON`: pass to @simplewebauthn/browser startRegistration(). */
export const CreationOptions = Type.Object(
  {
    rp: Type.Object({ name: Type.String(), id: Type.Optional(Type.String()) }),
    user: Type.Object({ id: Type.String(), name: Type.String(), displayName: Type.String() }),
    challenge: Type.String(),
    pubKeyCredParams: Type.Array(Type.Object({ alg: Type.Integer(), type: Type.Literal('public-key') })),
    timeout: Type.Optional(Type.Integer({ description: 'milliseconds' })),
    excludeCredentials: Type.Optional(Type.Array(Descriptor, { description: "the account's own passkeys" })),
    authenticatorSelection: Type.Optional(
      Type.Object({
        authenticatorAttachment: Attachment,
        requireResidentKey: Type.Optional(Type.Boolean()),
        residentKey: Type.Optional(Requirement),
        userVerification: Type.Optional(Requirement),
      }),
    ),
    attestation: Type.Optional(Type.String()),
    hints: Type.Optional(Type.Array(Type.String())),
    extensions: Type.Optional(ExtensionInputs),
  },
  { description: 'PublicKeyCredentialCreationOptionsJSON' },
);

/** `PublicKeyCredentialRequestOptionsJSON`: pass to @simplewebauthn/browser startAuthentication(). */
export const RequestOptions = Type.Object(
  {
    challenge: Type.String(),
    timeout: Type.Optional(Type.Integer({ description: 'milliseconds' })),
    rpId: Type.Optional(Type.String()),
    allowCredentials: Type.Optional(
      Type.Array(Descriptor, { description: 'empty: any passkey of this service' }),
    ),
    userVerification: Type.Optional(Requirement),
    hints: Type.Optional(Type.Array(Type.String())),
    extensions: Type.Optional(ExtensionInputs),
  },
  { description: 'PublicKeyCredentialRequestOptionsJSON' },
);

/** A passkey of the account. */
export const Passkey = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  created_at: dateTime(),
  last_used_at: nullable(dateTime()),
  device_type: Type.Enum(['single_device', 'multi_device'], {
    description: 'multi_device: synced between devices (a passkey manager); single_device: bound to one',
  }),
  backed_up: Type.Boolean({ description: 'whether the passkey is backed up (synced)' }),
  transports: Type.Array(Type.String()),
  session_id: nullable(
    Type.String({
      format: 'uuid',
      description:
        'the session it was registered from (see GET /sessions); null where it was added on the account page, or before this was recorded',
    }),
  ),
});
