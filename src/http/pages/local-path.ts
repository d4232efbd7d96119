// Where the language menu may send a browser back to: a page of this service, never another site.
//
// Rules it enforces:
// - `back` must be a path: it starts with one `/`, has no backslash and no control character, and is at most
//   MAX_BACK_LENGTH characters.
// - The path is judged after it is normalised as a browser would (`.` and `..` segments, `%2e` spelt dots):
//   a result that starts with `//` would be read as another host (`/.//evil.example` becomes
//   `//evil.example`), so it is refused, as is any result on another origin.
// - What is refused is answered as no `back` at all: the caller falls back to its own default page.

/** The longest `back` the menu carries: a sign-in page's URL with its sealed state. */
export const MAX_BACK_LENGTH = 9000;

/** An origin no request names, to resolve a path against and see whether it stays there. */
const PROBE_ORIGIN = 'http://callsign.invalid';

/** The normalised path (with its query) of a `back` that stays on this service; undefined for any other. */
export function localPath(back: string | undefined): string | undefined {
  if (!back || back.length > MAX_BACK_LENGTH || !back.startsWith('/')) return undefined;
  const backslashOrControl = [...back].some((ch) => ch === '\\' || ch.charCodeAt(0) < 0x20);
  if (backslashOrControl) return undefined;
  let url: URL;
  try {
    url = new URL(back, PROBE_ORIGIN);
  } catch {
    return undefined;
  }
  if (url.origin !== PROBE_ORIGIN) return undefined;
  const normalised = `${url.pathname}${url.search}`;
  const startsAnotherHost = normalised.startsWith('//') || normalised.startsWith('/\\');
  return startsAnotherHost ? undefined : normalised;
}
