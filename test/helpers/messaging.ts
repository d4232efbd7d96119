import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestApp } from './app.ts';
import { twilioSignature } from './vendors.ts';

/** A MESSAGING_CONFIG file of this content, in a directory of its own; answers its path. */
export function writeConfig(config: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'callsign-messaging-')), 'messaging.json');
  writeFileSync(path, JSON.stringify(config));
  return path;
}

/** `${NAME}` as MESSAGING_CONFIG writes a reference to an environment variable. */
export const envRef = (name: string) => ['$', '{', name, '}'].join('');

/** Twilio's status callback for message `sid` to /hooks/messages/`provider`, signed with its auth token as Twilio signs. */
export const twilioStatusCallback = (
  t: TestApp,
  o: { provider: string; authToken: string; sid: string; status: string },
) => {
  const fields = { MessageSid: o.sid, MessageStatus: o.status, AccountSid: 'AC1' };
  const url = `${t.c.config.baseUrl}/hooks/messages/${o.provider}`;
  return t.request('POST', `/hooks/messages/${o.provider}`, {
    body: new URLSearchParams(fields).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilioSignature(o.authToken, url, fields),
    },
  });
};
