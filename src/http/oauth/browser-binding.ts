// The hosted page's sealed state belongs to the browser it was made for.
//
// Rules it enforces:
// - Every sealed state carries a digest of the CSRF cookie of the browser it was sealed for (never the cookie
//   itself: the state travels in URLs, and a URL is copied, logged and shared).
// - A state is honoured only with that same cookie: a browser holding just the URL (the language menu's
//   `/authorize/resume?state=…`, a sign-up link) has another cookie, or none, and is shown the start of the
//   same authorization request, with nothing of the progress the state holds (a verified phone, a signed-in
//   account).
// - A form post whose state is not its browser's is refused as an expired sign-in.
import { safeEqual, sha256 } from '../../domain/crypto.ts';

/** The digest of a browser's CSRF cookie that a sealed state carries. */
export const browserTag = (csrf: string) => sha256(`authorization-page-state\n${csrf}`);

/** Whether the state was sealed for the browser whose CSRF cookie this is. */
export function sealedForBrowser(state: { browser?: unknown }, csrf: string | undefined): boolean {
  return (
    csrf !== undefined && typeof state.browser === 'string' && safeEqual(state.browser, browserTag(csrf))
  );
}
