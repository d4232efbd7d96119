import { Type } from 'typebox';
import { esc, hidden, page } from './html.ts';
import type { View } from './view.ts';

// The pages of a check by the mobile network: the one shown while the browser is sent through the operator,
// and the one a device comes back to where the operator's answer rides in the URL's fragment (Vonage), which
// only the page's own script can read and post. Both work without JavaScript: the first by a plain refresh to
// the operator, the second by a "Continue" that posts what there is (nothing: a code goes instead).

/** "Checking your number with your mobile network...", and on to the operator at once. */
export function checkingPage(v: View, operatorUrl: string): string {
  const refresh = `<meta http-equiv="refresh" content="0;url=${esc(operatorUrl)}">`;
  const body = `<p role="status">${v.t('network.checking')}</p><p><a class="button" href="${esc(operatorUrl)}">${v.t('auth.continue')}</a></p>`;
  return page(v, v.t('network.checking_title'), body, refresh);
}

/** The device is back: the fragment's answer posted to `action` with the form's own `fields`. */
export function fragmentReturnPage(v: View, action: string, fields: Record<string, string>): string {
  const kept = Object.entries(fields)
    .map(([name, value]) => hidden(name, value))
    .join('');
  const answer = ['request_id', 'code', 'error_description'].map((name) => hidden(name, '')).join('');
  const form = `<form method="post" action="${esc(action)}" data-network-return>${kept}${answer}<p role="status">${v.t('network.checking')}</p><noscript><button type="submit">${v.t('auth.continue')}</button></noscript></form>`;
  return page(
    v,
    v.t('network.checking_title'),
    `${form}<script src="/assets/network-return.js" defer></script>`,
  );
}

/** What a device's return may carry: the query of an operator's redirect, or the fields the page above posts. */
export const networkReturnFields = {
  state: Type.Optional(Type.String({ maxLength: 200 })),
  code: Type.Optional(Type.String({ maxLength: 2000 })),
  error: Type.Optional(Type.String({ maxLength: 200 })),
  request_id: Type.Optional(Type.String({ maxLength: 200 })),
  error_description: Type.Optional(Type.String({ maxLength: 200 })),
};
export type NetworkReturned = { [K in keyof typeof networkReturnFields]?: string };
