// Where the account page's "Back to" link may lead.
//
// Rules it enforces:
// - A `return_to` is kept only when it is an http or https address, at most MAX_RETURN_LENGTH characters, on
//   the origin of a live client's redirect URI; anything else is dropped (the page opens without a way back),
//   so a link to the account page cannot send a person on to another site.
import type { ClientService } from './clients.ts';

const MAX_RETURN_LENGTH = 2048;
const WEB_SCHEMES = ['https:', 'http:'];

export async function accountReturnTo(
  clients: Pick<ClientService, 'isWebOrigin'>,
  asked: string | undefined,
): Promise<string | undefined> {
  if (!asked || asked.length > MAX_RETURN_LENGTH || !URL.canParse(asked)) return undefined;
  const address = new URL(asked);
  if (!WEB_SCHEMES.includes(address.protocol)) return undefined;
  return (await clients.isWebOrigin(address.origin)) ? address.toString() : undefined;
}
