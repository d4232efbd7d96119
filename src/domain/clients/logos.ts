import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../../providers/clock.ts';
import type { OutboundGet } from '../../providers/outbound-get.ts';
import type { Database } from '../../storage/db.ts';
import { logosRepo } from '../../storage/repositories/logos.ts';
import { fieldError } from '../errors.ts';
import { imageLibrary } from '../profiles/image-library.ts';

/** Logos are shown at most 96 px wide; kept at twice that for sharp screens. */
export const LOGO_SIZE = 192;
/** Larger images are refused before they are decoded (decompression bombs). */
export const LOGO_MAX_PIXELS = 25_000_000;

export interface LogoDeps {
  db: Database;
  clock: Clock;
  fetchImage: OutboundGet;
  logger: Logger;
}

/** Where a stored logo is served from; its name carries its content hash, so it is cached for good. */
export const logoPath = (name: string) => `/assets/logos/${name}`;

/**
 * Logos of clients and of the instance: fetched by this service once (D33's rules), recognised by content
 * (JPEG, PNG or WebP; never SVG, which can carry scripts), re-encoded (which drops everything but the
 * pixels), stored, and served from here, so a page never loads an image from another host.
 */
export class LogoService {
  #instanceLogo: string | undefined;

  constructor(private readonly d: LogoDeps) {}

  /** The stored name of the logo at `uri`, fetched and re-encoded now; `field` is named if it cannot be used. */
  async fetchLogo(uri: string, field: string): Promise<string> {
    const refuse = (why: string) =>
      fieldError('INVALID_REQUEST', field, `${field} could not be used: ${why}`);
    const fetched = await this.d.fetchImage(uri);
    if ('refused' in fetched) throw refuse(fetched.refused);
    const data = await reencode(fetched.data);
    if (typeof data === 'string') throw refuse(data);
    const name = `${createHash('sha256').update(data).digest('base64url').slice(0, 22)}.webp`;
    await logosRepo.insert(this.d.db, { name, sourceUri: uri, data }, this.d.clock.now());
    return name;
  }

  async find(name: string): Promise<Buffer | undefined> {
    if (!/^[A-Za-z0-9_-]{22}\.webp$/.test(name)) return undefined;
    const row = await logosRepo.find(this.d.db, name);
    return row ? Buffer.from(row.data) : undefined;
  }

  /**
   * BRAND_LOGO_URL, fetched once: the logo stored from it before, else fetched now. A logo that cannot be
   * fetched is logged and the pages show the name alone.
   */
  async loadInstanceLogo(uri: string | undefined): Promise<void> {
    if (!uri) return;
    try {
      const stored = await logosRepo.latestFrom(this.d.db, uri);
      this.#instanceLogo = stored?.name ?? (await this.fetchLogo(uri, 'BRAND_LOGO_URL'));
    } catch (err) {
      this.d.logger.warn(
        { err: (err as Error).message },
        'BRAND_LOGO_URL could not be fetched; pages show no logo',
      );
    }
  }

  /** The instance's logo as the pages link it, once loaded. */
  get instanceLogo(): string | undefined {
    return this.#instanceLogo && logoPath(this.#instanceLogo);
  }
}

/** The image as WebP of at most LOGO_SIZE px a side, or why it is not one this service shows. */
async function reencode(file: Buffer): Promise<Buffer | string> {
  const sharp = await imageLibrary(); // loaded with the first image, not at start
  try {
    const meta = await sharp(file, { limitInputPixels: false }).metadata();
    if (!meta.format || !['jpeg', 'png', 'webp'].includes(meta.format))
      return 'not a JPEG, PNG or WebP image';
    if ((meta.width ?? 0) * (meta.height ?? 0) > LOGO_MAX_PIXELS) return 'the image has too many pixels';
    return await sharp(file, { limitInputPixels: LOGO_MAX_PIXELS })
      .resize(LOGO_SIZE, LOGO_SIZE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 90 })
      .toBuffer();
  } catch {
    return 'not a JPEG, PNG or WebP image';
  }
}
