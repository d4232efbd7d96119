import { hidden } from './html.ts';
import type { View } from './view.ts';

// The hosted pages' passkey steps. Their English button names are a contract like the other steps' (integrators'
// browser tests find "Sign in with a passkey", "Create a passkey", "Not now", "Continue without a passkey").
// A passkey needs the browser's WebAuthn: each passkey form stays hidden until the page's script finds it, so a
// page without JavaScript shows only what works without it.

/** The WebAuthn library (served from here) and the page's script that drives it. */
export const PASSKEY_SCRIPTS =
  '<script src="/assets/webauthn.js" defer></script><script src="/assets/passkey.js" defer></script>';

/** What of a step's form context the passkey forms carry. */
interface PasskeyFormContext {
  state: string;
  csrf: string;
  view: View;
  /** passkeys are a way to sign in here */
  passkeys?: boolean;
}

interface PasskeyForm {
  action: string;
  ceremony: 'signin' | 'register';
  button: string;
  /** what the script shows when the browser or the person refused */
  failed: string;
  /** the page's main action, rather than one beside it */
  primary?: boolean;
  /** the browser may offer the passkeys in the phone field's autofill */
  autofill?: boolean;
  /** where the script asks for the ceremony's options, when not the sign-in pages' own */
  options?: string;
  /** the account page's way back to the app, carried through the post */
  returnTo?: string;
}

/**
 * A form the script completes: it asks /authorize/passkey/options for the ceremony, asks the browser, and posts
 * the browser's answer in `response`; if the browser or the person refuses, it shows `failed` instead.
 */
export function passkeyForm(c: PasskeyFormContext, f: PasskeyForm) {
  const autofill = `${f.autofill ? ' data-autofill="on"' : ''}${f.options ? ` data-options="${f.options}"` : ''}`;
  const back = f.returnTo ? hidden('return_to', f.returnTo) : '';
  const button = `<button type="submit"${f.primary ? '' : ' class="secondary"'}>${f.button}</button>`;
  return `<form method="post" action="${f.action}" data-passkey="${f.ceremony}"${autofill} hidden>${hidden('state', c.state)}${hidden('csrf', c.csrf)}${hidden('response', '')}${back}<p class="error" role="alert" data-passkey-error hidden>${f.failed}</p>${button}</form>`;
}

/** A plain form that goes on without a passkey. */
export const onwardForm = (c: PasskeyFormContext, action: string, button: string) =>
  `<form method="post" action="${action}">${hidden('state', c.state)}${hidden('csrf', c.csrf)}<button type="submit" class="secondary">${button}</button></form>`;

/**
 * The sign-in page's "Sign in with a passkey", and the passkeys offered in the phone field's autofill (its script
 * comes with the PIN form's platformAuthenticatorField).
 */
export const passkeySignIn = (c: PasskeyFormContext) =>
  c.passkeys
    ? passkeyForm(c, {
        action: '/authorize/passkey',
        ceremony: 'signin',
        button: c.view.t('passkey.sign_in'),
        failed: c.view.t('passkey.failed'),
        autofill: true,
      })
    : '';

/**
 * A field the page's script (loaded with it) sets to 1 where the browser has a platform authenticator that
 * verifies its user.
 */
export const platformAuthenticatorField = (c: PasskeyFormContext) =>
  c.passkeys ? hidden('platform_authenticator', '') + PASSKEY_SCRIPTS : '';
