// The code page's WebOTP enhancement (served by hosted-routes.ts): where the browser offers the WebOTP API,
// the code from the SMS (whose last line names this origin) fills the field and the form goes on by itself.
// Without JavaScript or without the API, the person types the code as before.
export const WEBOTP_SCRIPT = `(() => {
  if (!('OTPCredential' in window)) return;
  const input = document.querySelector('input[autocomplete="one-time-code"]');
  if (!input || !input.form) return;
  const abort = new AbortController();
  input.form.addEventListener('submit', () => abort.abort());
  navigator.credentials
    .get({ otp: { transport: ['sms'] }, signal: abort.signal })
    .then((otp) => {
      if (!otp || !otp.code) return;
      input.value = otp.code;
      input.form.requestSubmit();
    })
    .catch(() => {});
})();
`;
