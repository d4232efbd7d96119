import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import type { TestApp } from './app.ts';

/** A real image of the given format, generated (not a fixture file). */
export const photo = (format: 'jpeg' | 'png' | 'webp' | 'gif' = 'jpeg', width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .toFormat(format)
    .toBuffer();

export interface Upload {
  field: string;
  filename: string;
  type: string;
  data: Buffer;
}

/** multipart/form-data as a browser sends it. */
export function multipart(fields: Record<string, string>, files: Upload[]) {
  const boundary = `----callsign${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  for (const f of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.filename}"\r\nContent-Type: ${f.type}\r\n\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

export const ADULT_BIRTHDAY = '1990-06-15';

/** POST /kyc/initiate for this user; answers the path of its verification URL. */
export async function initiate(t: TestApp, accessToken: string): Promise<string> {
  const res = await t.request('POST', '/kyc/initiate', { token: accessToken });
  if (res.status !== 200) throw new Error(`initiate failed: ${JSON.stringify(res.body)}`);
  return new URL(res.body.data.verification_url).pathname;
}

/** Opens the page (for its CSRF cookie and field) and posts the form; answers the page's status and HTML. */
export async function submitForm(
  t: TestApp,
  path: string,
  fields: Record<string, string>,
  files: Upload[],
  { csrf: useCsrf = true } = {},
) {
  const page = await t.app.inject({ method: 'GET', url: path });
  const cookie = String(page.headers['set-cookie'] ?? '').split(';')[0];
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
  const body = multipart(useCsrf ? { csrf, ...fields } : fields, files);
  const res = await t.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': body.contentType, cookie },
    payload: body.payload,
  });
  return { status: res.statusCode, html: res.body, headers: res.headers };
}

export const documentPhoto = async (format: 'jpeg' | 'png' | 'webp' = 'jpeg'): Promise<Upload> => ({
  field: 'document',
  filename: `front.${format}`,
  type: `image/${format}`,
  data: await photo(format),
});

export const selfiePhoto = async (): Promise<Upload> => ({
  field: 'selfie',
  filename: 'me.jpg',
  type: 'image/jpeg',
  data: await photo('jpeg', 40, 40),
});

export const validFields = (birthday = ADULT_BIRTHDAY) => ({
  country: 'DE',
  birthday,
  document_kind: 'passport',
});
