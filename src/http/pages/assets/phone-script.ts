// The phone field's as-you-type grouping (served by hosted-routes.ts), where JavaScript runs: the digits typed
// are laid into the chosen country's national pattern (the option's data-f, from libphonenumber's example
// number, "x" for each digit). A number typed with "+", or longer than the pattern, is left as typed; the
// server reads the number either way.
export const PHONE_SCRIPT = `(() => {
  const select = document.getElementById('country');
  const input = document.getElementById('phone');
  if (!select || !input) return;
  const format = () => {
    const pattern = select.selectedOptions[0] && select.selectedOptions[0].dataset.f;
    if (!pattern || input.value.trim().startsWith('+')) return;
    const digits = input.value.replace(/\\D/g, '');
    if (digits.length > pattern.split('x').length - 1) return;
    let grouped = '';
    let next = 0;
    for (const ch of pattern) {
      if (next >= digits.length) break;
      grouped += ch === 'x' ? digits[next++] : ch;
    }
    input.value = grouped;
  };
  input.addEventListener('input', (event) => {
    if (!(event.inputType || '').startsWith('delete')) format();
  });
  select.addEventListener('change', format);
})();
`;
