// The page a device comes back to from Vonage's check (served by hosted-routes.ts): the answer rides in the
// URL's fragment, which never reaches the server; the script copies it into the page's form, takes it out of
// the address bar, and posts the form. Without JavaScript the form's "Continue" posts without it, and a code
// is sent instead.
export const NETWORK_RETURN_SCRIPT = `(() => {
  const form = document.querySelector('form[data-network-return]');
  if (!form) return;
  const answer = new URLSearchParams(location.hash.slice(1));
  for (const name of ['request_id', 'code', 'error_description']) {
    const input = form.querySelector('input[name="' + name + '"]');
    if (input && answer.has(name)) input.value = answer.get(name);
  }
  history.replaceState(null, '', location.pathname + location.search);
  form.submit();
})();
`;
