// The account page's times (served by hosted-routes.ts): written by the server in UTC, saying so, and written
// again here, where JavaScript runs, in the browser's own time zone and the page's language.
export const LOCAL_TIME_SCRIPT = `(() => {
  const lang = document.documentElement.lang || undefined;
  let format;
  try {
    format = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
  } catch {
    return;
  }
  for (const time of document.querySelectorAll('time[datetime]')) {
    const at = new Date(time.getAttribute('datetime'));
    if (!Number.isNaN(at.getTime())) time.textContent = format.format(at);
  }
})();
`;
