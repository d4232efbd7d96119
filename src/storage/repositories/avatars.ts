import { maybeOne, type Queryable } from '../db.ts';

export const avatarsRepo = {
  /**
   * Replaces the user's avatar images with these. Names are the user's own; a name already there is
   * the same picture, written by an upload of it that ran at the same time.
   */
  async replace(q: Queryable, userId: string, images: Array<{ name: string; data: Buffer }>, now: Date) {
    await q.query('DELETE FROM avatars WHERE user_id = $1', [userId]);
    for (const img of images) {
      await q.query(
        `INSERT INTO avatars (name, user_id, content_type, data, created_at) VALUES ($1, $2, 'image/webp', $3, $4)
         ON CONFLICT (name) DO NOTHING`,
        [img.name, userId, img.data, now],
      );
    }
  },

  removeAll: (q: Queryable, userId: string) => q.query('DELETE FROM avatars WHERE user_id = $1', [userId]),

  find: (q: Queryable, name: string) =>
    maybeOne<{ content_type: string; data: Uint8Array }>(
      q,
      'SELECT content_type, data FROM avatars WHERE name = $1',
      [name],
    ),
};
