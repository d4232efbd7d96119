// The phone field's as-you-type grouping (served by hosted-routes.ts), where JavaScript runs: the digits typed
// are laid into the chosen country's national pattern (the option's data-f, from libphonenumber's example
// number, "x" for each digit). A number typed with "+", or longer than the pattern, is left as typed; the
// server reads the number either way. The chosen country's flag is drawn beside the picker, as decoration,
// only where the browser draws flag emoji in colour (elsewhere they are boxes or letter pairs).
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
  const flag = select.parentElement.querySelector('.flag');
  const flagOf = (code) =>
    String.fromCodePoint(...[...code].map((ch) => 0x1f1e6 + ch.charCodeAt(0) - 65));
  const drawsFlags = () => {
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 32;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (!context) return false;
    context.font = '28px sans-serif';
    context.textBaseline = 'top';
    context.fillText(flagOf('NG'), 0, 0);
    const pixels = context.getImageData(0, 0, 32, 32).data;
    for (let i = 0; i < pixels.length; i += 4)
      if (pixels[i + 3] > 0 && (pixels[i] !== pixels[i + 1] || pixels[i + 1] !== pixels[i + 2])) return true;
    return false;
  };
  if (flag && drawsFlags()) {
    const show = () => {
      flag.textContent = select.value ? flagOf(select.value) : '';
    };
    select.addEventListener('change', show);
    show();
  }
})();
`;
