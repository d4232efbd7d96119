import type { Queryable } from '../db.ts';
import { all, first, sql } from '../sql.ts';

export const avatarsRepo = {
  /**
   * Replaces the user's avatar images with these. Names are the user's own; a name already there is
   * the same picture, written by an upload of it that ran at the same time.
   */
  async replace(q: Queryable, userId: string, images: Array<{ name: string; data: Buffer }>, now: Date) {
    await all(q, sql`DELETE FROM avatars WHERE user_id = ${userId}`);
    for (const img of images) {
      await all(
        q,
        sql`INSERT INTO avatars (name, user_id, content_type, data, created_at) VALUES (${img.name}, ${userId}, 'image/webp', ${img.data}, ${now})
         ON CONFLICT (name) DO NOTHING`,
      );
    }
  },

  removeAll: (q: Queryable, userId: string) => all(q, sql`DELETE FROM avatars WHERE user_id = ${userId}`),

  find: (q: Queryable, name: string) =>
    first<{ content_type: string; data: Uint8Array }>(
      q,
      sql`SELECT content_type, data FROM avatars WHERE name = ${name}`,
    ),
};
