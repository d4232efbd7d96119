import { esc, field, hidden, page } from './html.ts';
import type { View } from './view.ts';

// The device verification page (RFC 8628 §3.3): where a person types the code a TV, kiosk or terminal shows,
// then signs in and allows or denies it on the hosted pages; and the page each decision ends on.

/** What the code form shows: the code typed or given in the link, and why the last one was refused. */
export interface DeviceForm {
  csrf: string;
  userCode?: string;
  wrongCode?: boolean;
}

/**
 * "Enter the code shown on your device": never submitted by itself, even when the link carried the code, so the
 * person confirms it against the device's screen (RFC 8628 §5.4).
 */
export const deviceCodePage = (v: View, f: DeviceForm) =>
  page(
    v,
    v.t('device.title'),
    `<p>${v.t('device.enter_code')}</p><form method="post" action="/authorize/device">${hidden('csrf', f.csrf)}${field(
      v.t('auth.code'),
      'user_code',
      `type="text" autocapitalize="characters" autocomplete="off" spellcheck="false" maxlength="12" required value="${esc(f.userCode ?? '')}"`,
      {
        hint: v.t('device.code_hint'),
        error: f.wrongCode ? v.t('device.wrong_code') : undefined,
      },
    )}<p class="notice">${v.t('device.own_device_only')}</p><button type="submit">${v.t('auth.continue')}</button></form>`,
  );

/** The device is allowed: its next poll gets its tokens. */
export const deviceAllowedPage = (v: View, clientName: string) =>
  page(v, v.t('device.done_title'), `<p role="status">${v.t('device.done', { client: clientName })}</p>`);

/** The device is denied: its next poll is told so. */
export const deviceDeniedPage = (v: View, clientName: string) =>
  page(v, v.t('device.denied_title'), `<p role="status">${v.t('device.denied', { client: clientName })}</p>`);
