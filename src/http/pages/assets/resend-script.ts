// The code page's "Send a new code" countdown (served by hosted-routes.ts): the button is disabled for the
// seconds the server said were left when it sent the page (counted from the page's load, so the device's clock
// does not matter), with the seconds left beside it. Without JavaScript the button is always
// there, and the server answers an early one with the seconds to wait.
export const RESEND_SCRIPT = `(() => {
  const button = document.querySelector('button[data-wait-seconds]');
  const left = document.querySelector('[data-countdown]');
  if (!button || !left) return;
  const until = Date.now() + Number(button.dataset.waitSeconds) * 1000;
  const template = left.dataset.countdown || '';
  const tick = () => {
    const seconds = Math.ceil((until - Date.now()) / 1000);
    if (seconds <= 0) {
      button.disabled = false;
      left.textContent = '';
      return;
    }
    button.disabled = true;
    left.textContent = template.replace('%s', String(seconds));
    setTimeout(tick, 1000);
  };
  tick();
})();
`;
