// The hosted sign-up page's proof of work, as the script the page loads (served by signup-routes.ts): it finds
// the answer to the challenge (ALTCHA v1) the form carries, puts it in the form and sends it. First-party and
// small, so the page's policy allows only this script. Kept as text here so the bundle carries it.
export const CHALLENGE_SCRIPT = `// The hosted sign-up page's proof of work (ALTCHA v1): finds the answer to the challenge the form carries,
// puts it in the form and sends it. First-party and small, so the page's policy allows only this script.
(async () => {
  const form = document.querySelector('form[data-challenge]');
  if (!form) return;
  const challenge = JSON.parse(form.dataset.challenge);
  const encoder = new TextEncoder();
  const hex = (buffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, '0')).join('');
  for (let number = 0; number <= challenge.maxnumber; number++) {
    const digest = await crypto.subtle.digest('SHA-256', encoder.encode(challenge.salt + number));
    if (hex(digest) !== challenge.challenge) continue;
    const { algorithm, salt, signature } = challenge;
    const payload = { algorithm, challenge: challenge.challenge, number, salt, signature };
    form.elements.challenge_solution.value = btoa(JSON.stringify(payload));
    form.submit();
    return;
  }
})();
`;
