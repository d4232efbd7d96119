import { createHash } from 'node:crypto';
import type { Clock } from '../../providers/clock.ts';
import type { Database } from '../../storage/db.ts';
import { avatarsRepo } from '../../storage/repositories/avatars.ts';
import type { UserRow } from '../../storage/repositories/users.ts';
import { DomainError } from '../errors.ts';
import { imageLibrary } from './image-library.ts';
import type { ProfileService } from './profiles.ts';

/** 5 MB means 5 MiB. */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
/** Larger images are refused as file_too_large (decompression bombs). */
export const AVATAR_MAX_PIXELS = 40_000_000;
export const AVATAR_SIZES = [512, 128] as const;

export interface AvatarDeps {
  db: Database;
  clock: Clock;
  profiles: ProfileService;
  baseUrl: string;
}

/** Avatar images: recognised by content, re-encoded (which drops EXIF and anything else), stored, served. */
export class AvatarService {
  constructor(private readonly d: AvatarDeps) {}

  async upload(userId: string, file: Buffer): Promise<UserRow> {
    if (file.length > AVATAR_MAX_BYTES)
      throw new DomainError('FILE_TOO_LARGE', 'the image must be at most 5 MB');
    const sharp = await imageLibrary(); // loaded with the first image, not at start
    let format: string | undefined;
    let pixels = 0;
    try {
      const meta = await sharp(file, { limitInputPixels: false }).metadata();
      format = meta.format;
      pixels = (meta.width ?? 0) * (meta.height ?? 0);
    } catch {
      throw new DomainError('INVALID_FILE_TYPE', 'the file must be a JPEG, PNG or WebP image');
    }
    if (!format || !['jpeg', 'png', 'webp'].includes(format)) {
      throw new DomainError('INVALID_FILE_TYPE', 'the file must be a JPEG, PNG or WebP image');
    }
    if (pixels > AVATAR_MAX_PIXELS)
      throw new DomainError('FILE_TOO_LARGE', 'the image has too many pixels (40 megapixels at most)');

    // A header can read well over image data that does not decode (a PNG with a broken IDAT): the client's
    // file, not our fault.
    const images = await Promise.all(
      AVATAR_SIZES.map(async (size) => {
        const data = await sharp(file, { limitInputPixels: AVATAR_MAX_PIXELS })
          .rotate() // honour the EXIF orientation before it is dropped
          .resize(size, size, { fit: 'cover' })
          .webp({ quality: 82 })
          .toBuffer();
        return { size, data };
      }),
    ).catch(() => {
      throw new DomainError('INVALID_FILE_TYPE', 'the image data could not be decoded');
    });
    // Named by content, and by owner: two accounts with the same picture each have their own rows.
    const hash = createHash('sha256').update(userId).update(images[0].data).digest('base64url').slice(0, 22);
    const named = images.map((img) => ({
      name: img.size === 512 ? `${hash}.webp` : `${hash}-${img.size}.webp`,
      data: img.data,
    }));
    // The images and the profile's avatar_url change together or not at all: the old URL keeps working
    // until the new one is the profile's.
    return this.d.db.transaction(async (tx) => {
      await avatarsRepo.replace(tx, userId, named, this.d.clock.now());
      return this.d.profiles.applyIn(tx, userId, {
        avatar_url: `${this.d.baseUrl}/avatars/${named[0].name}`,
      });
    });
  }

  async remove(userId: string): Promise<void> {
    await this.d.db.transaction(async (tx) => {
      await avatarsRepo.removeAll(tx, userId);
      await this.d.profiles.applyIn(tx, userId, { avatar_url: null });
    });
  }

  find(name: string) {
    return avatarsRepo.find(this.d.db, name);
  }
}
