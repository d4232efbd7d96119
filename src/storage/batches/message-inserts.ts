import type { Database } from '../db.ts';
import { messagesRepo, type NewMessage } from '../repositories/messages.ts';
import { Coalescer } from './coalescer.ts';

// As the other batches: 32 a batch, two at once.
const LIMITS = { maxBatch: 32, concurrency: 2 };

/**
 * The records of the messages this process sends, written in batches: the sends that finish together cost
 * PostgreSQL one statement, and the service one round trip.
 */
export class MessageInserts {
  readonly #inserts: Coalescer<NewMessage, void>;

  constructor(db: Database) {
    this.#inserts = new Coalescer(
      async (messages) => {
        await messagesRepo.insertMany(db, messages);
        return messages.map(() => undefined);
      },
      async (message) => {
        await messagesRepo.insertMany(db, [message]);
      },
      LIMITS,
    );
  }

  insert(message: NewMessage): Promise<void> {
    return this.#inserts.call(message);
  }
}
