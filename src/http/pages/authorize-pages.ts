import type { Channel } from '../../providers/messaging/provider.ts';
import type { ClientRow } from '../../storage/repositories/clients.ts';
import { errorBox, esc, field, hidden, page } from './html.ts';

// D38: the hosted authorization page. Labels and button names are a contract: integrators' browser
// tests find "Phone number", "PIN", "Code", "Handle", "Name", "Continue", "Allow", "Deny", "Create account".

const SCOPE_WORDS: Record<string, string> = {
  openid: 'Know who you are (your account id)',
  profile: 'See your name and profile picture',
  'profile:write': 'Change your name, picture and app data',
  phone: 'See your phone number',
  email: 'See your e-mail address',
  kyc: 'See whether your identity is verified, and in which country',
  'account:delete': 'Delete your account',
};

export interface FormContext {
  client: ClientRow;
  state: string;
  csrf: string;
  error?: string;
}

const form = (action: string, c: FormContext, inner: string, button = 'Continue') =>
  `<form method="post" action="${action}">${hidden('state', c.state)}${hidden('csrf', c.csrf)}${inner}<button type="submit">${button}</button></form>`;

const intro = (c: FormContext) =>
  `<p>to continue to <strong>${esc(c.client.client_name)}</strong></p>${errorBox(c.error)}`;

export const signInPage = (c: FormContext, phone = '') =>
  page(
    'Sign in',
    intro(c) +
      form(
        '/authorize/signin',
        c,
        field('Phone number', 'phone', `type="tel" autocomplete="tel" required value="${esc(phone)}"`) +
          field(
            'PIN',
            'pin',
            'type="password" inputmode="numeric" autocomplete="current-password" pattern="[0-9]{4,6}" required',
          ),
      ) +
      `<p>New here? <a href="/authorize/signup?state=${encodeURIComponent(c.state)}">Create account</a></p>`,
  );

const CHANNEL_NAMES: Record<Channel, string> = {
  sms: 'Text message (SMS)',
  whatsapp: 'WhatsApp',
  voice: 'Voice call',
};

/** A choice of the channel the code goes by, when the service offers more than SMS. */
const channelChoice = (channels: readonly Channel[]) =>
  channels.length < 2
    ? ''
    : `<label for="channel">Send the code by</label><select id="channel" name="channel">${channels
        .map((ch) => `<option value="${ch}">${CHANNEL_NAMES[ch]}</option>`)
        .join('')}</select>`;

export const signUpPhonePage = (c: FormContext, phone = '', channels: readonly Channel[] = ['sms']) =>
  page(
    'Create account',
    `${intro(c)}<p>We will send a code to your phone.</p>${form('/authorize/signup/send', c, field('Phone number', 'phone', `type="tel" autocomplete="tel" required value="${esc(phone)}"`) + channelChoice(channels))}<p>Already have an account? <a href="/authorize/signin?state=${encodeURIComponent(c.state)}">Sign in</a></p>`,
  );

/** The challenge the SMS defence asks for, solved in the browser by the page's own script, then sent on. */
export const signUpChallengePage = (c: FormContext, phone: string, challenge: object) =>
  page(
    'Create account',
    `${intro(c)}<p>Checking that you are a person before we text a code to ${esc(phone)}; this takes a second or two.</p>
<noscript><p class="error">This check needs JavaScript. Turn it on and try again, or sign up in the app.</p></noscript>
<form method="post" action="/authorize/signup/send" data-challenge="${esc(JSON.stringify(challenge))}">${hidden('state', c.state)}${hidden('csrf', c.csrf)}${hidden('phone', phone)}${hidden('challenge_solution', '')}<noscript><button type="submit">Continue</button></noscript></form>
<script src="/authorize/assets/challenge.js" defer></script>`,
  );

/** The operator's hosted CAPTCHA (Turnstile or hCaptcha), in the challenge's place: its widget, then Continue. */
export const signUpCaptchaPage = (
  c: FormContext,
  phone: string,
  widget: { widgetClass: string; siteKey: string; script: string },
) =>
  page(
    'Create account',
    `${intro(c)}<p>Show that you are a person, then continue, and we will text a code to ${esc(phone)}.</p>
<noscript><p class="error">This check needs JavaScript. Turn it on and try again, or sign up in the app.</p></noscript>
<form method="post" action="/authorize/signup/send">${hidden('state', c.state)}${hidden('csrf', c.csrf)}${hidden('phone', phone)}<div class="${esc(widget.widgetClass)}" data-sitekey="${esc(widget.siteKey)}"></div><button type="submit">Continue</button></form>
<script src="${esc(widget.script)}" async defer></script>`,
  );

export const signUpCodePage = (c: FormContext, maskedPhone: string) =>
  page(
    'Enter the code',
    `${intro(c)}<p>We sent a code to ${esc(maskedPhone)}.</p>${form('/authorize/signup/verify', c, field('Code', 'code', 'inputmode="numeric" autocomplete="one-time-code" required'))}`,
  );

export const signUpAccountPage = (c: FormContext) =>
  page(
    'Choose your PIN and handle',
    intro(c) +
      form(
        '/authorize/signup/create',
        c,
        field(
          'PIN',
          'pin',
          'type="password" inputmode="numeric" autocomplete="new-password" pattern="[0-9]{4,6}" required',
        ) +
          field('Handle', 'handle', 'autocomplete="username" required') +
          field('Name', 'name', 'autocomplete="name"'),
      ),
  );

export const consentPage = (c: FormContext, scope: string) =>
  page(
    'Allow access?',
    `<p><strong>${esc(c.client.client_name)}</strong> would like to:</p><ul>${scope
      .split(' ')
      .map((s) => `<li>${esc(SCOPE_WORDS[s] ?? s)}</li>`)
      .join('')}</ul>` +
      `<form method="post" action="/authorize/consent">${hidden('state', c.state)}${hidden('csrf', c.csrf)}` +
      '<button type="submit" name="decision" value="allow">Allow</button> ' +
      '<button type="submit" name="decision" value="deny">Deny</button></form>',
  );

/** RP-Initiated Logout: the user is asked before a request that proves nothing ends their sign-in. */
export const logoutConfirmPage = (csrf: string) =>
  page(
    'Sign out?',
    `<p>Do you want to sign out here? Applications you use will ask you to sign in again.</p>` +
      `<form method="post" action="/authorize/logout/confirm">${hidden('csrf', csrf)}<button type="submit">Sign out</button></form>`,
  );

export const signedOutPage = () =>
  page('Signed out', '<p>You are signed out. You can close this page or go back to the application.</p>');

export const errorPage = (message: string) =>
  page('Sign-in cannot continue', `${errorBox(message)}<p>Go back to the application and try again.</p>`);
