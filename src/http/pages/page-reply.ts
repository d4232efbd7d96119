import type { FastifyReply } from 'fastify';
import type { WidgetPolicy } from '../../config/captcha-vendors.ts';

const sources = (origins: string[] | undefined) => (origins?.length ? ` ${origins.join(' ')}` : '');

/**
 * Every hosted page goes out with no framing, no referrer, no caching, no scripts, styles only from the
 * service's own stylesheet, and forms that post only to the page itself (and to `formTarget`, the client
 * being returned to, when there is one). Images and scripts are allowed only from this origin, and only on a
 * page that shows one of its own (a logo, the console's KYC photos; the phone field's grouping, the
 * challenge, WebOTP, passkeys): the page's own markup says so, and user text, escaped, never can. On the page that
 * shows an operator's hosted CAPTCHA, exactly the origins its vendor documents for the widget (whose frames
 * set inline styles, which only that page allows).
 */
export function sendPage(
  reply: FastifyReply,
  status: number,
  body: string,
  { formTarget, widget }: { formTarget?: string; widget?: WidgetPolicy } = {},
) {
  const withImages = body.includes('<img src="/');
  const script = body.includes('<script src="/')
    ? " script-src 'self';"
    : widget
      ? ` script-src${sources(widget.script)};`
      : '';
  const frame = widget ? ` frame-src${sources(widget.frame)};` : '';
  // A passkey form's script asks this origin for the ceremony's options; nothing else is fetched.
  const connect = widget?.connect.length
    ? ` connect-src${sources(widget.connect)};`
    : body.includes('data-passkey="')
      ? " connect-src 'self';"
      : '';
  return reply
    .status(status)
    .header('Content-Type', 'text/html; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Frame-Options', 'DENY')
    .header('X-Content-Type-Options', 'nosniff')
    .header(
      'Content-Security-Policy',
      `default-src 'none'; style-src 'self'${widget ? ` 'unsafe-inline'${sources(widget.style)}` : ''};${withImages ? " img-src 'self';" : ''}${script}${frame}${connect} form-action 'self'${formTarget ? ` ${formTarget}` : ''}; frame-ancestors 'none'; base-uri 'none'`,
    )
    .send(body);
}
