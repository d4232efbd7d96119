// The passkey forms' script (served by hosted-routes.ts), on top of @simplewebauthn/browser's bundle, which is
// served from here too (no other origin is asked for a script). It shows each passkey form once the browser has
// WebAuthn; a submit asks /authorize/passkey/options for the ceremony's options, asks the browser, and posts
// the browser's answer. The sign-in form also offers the passkeys in the phone field's autofill (conditional
// mediation) where the browser can. The PIN and sign-up forms learn whether this device has a platform
// authenticator that verifies its user, so the server offers a passkey only where one can be made.
export const PASSKEY_SCRIPT = `(() => {
  const W = window.SimpleWebAuthnBrowser;
  if (!W || !W.browserSupportsWebAuthn()) return;
  const options = (form, ceremony) => {
    const body = new URLSearchParams({
      csrf: form.elements.csrf.value,
      state: form.elements.state.value,
      ceremony,
    });
    return fetch(form.dataset.options || '/authorize/passkey/options', { method: 'POST', body, credentials: 'same-origin' }).then(
      (answer) => {
        if (!answer.ok) throw new Error('no options');
        return answer.json();
      },
    );
  };
  const ask = (ceremony, optionsJSON, useBrowserAutofill) =>
    ceremony === 'register'
      ? W.startRegistration({ optionsJSON })
      : W.startAuthentication({ optionsJSON, useBrowserAutofill });
  const send = (form, response) => {
    form.elements.response.value = JSON.stringify(response);
    form.submit();
  };
  for (const input of document.querySelectorAll('input[name="platform_authenticator"]'))
    W.platformAuthenticatorIsAvailable().then((yes) => {
      if (yes) input.value = '1';
    });
  for (const form of document.querySelectorAll('form[data-passkey]')) {
    const ceremony = form.dataset.passkey;
    const failed = form.querySelector('[data-passkey-error]');
    form.hidden = false;
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (failed) failed.hidden = true;
      options(form, ceremony)
        .then((o) => ask(ceremony, o, false))
        .then((response) => send(form, response))
        .catch(() => {
          if (failed) failed.hidden = false;
        });
    });
    if (form.dataset.autofill === 'on')
      W.browserSupportsWebAuthnAutofill()
        .then((yes) => (yes ? options(form, 'signin') : undefined))
        .then((o) => (o ? ask('signin', o, true) : undefined))
        .then((response) => response && send(form, response))
        .catch(() => {});
  }
})();
`;
