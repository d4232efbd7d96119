// Sends handed off the request's path: the answer does not wait for the vendor. Used where waiting would tell
// something the answer must not (a PIN reset under enumeration protection answers alike for every number).
//
// Rules it enforces:
// - A handed send starts at once and runs to its end whatever became of the request.
// - Its failure is its own to handle; anything it leaves unhandled is logged, never thrown into a request.
// - A stopping service waits for the sends in flight before it closes the database they write to.
import type { Logger } from 'pino';

export class SendQueue {
  readonly #inFlight = new Set<Promise<void>>();
  constructor(private readonly logger: Logger) {}

  /** Starts the send without waiting for it. */
  hand(send: () => Promise<void>): void {
    const running: Promise<void> = Promise.resolve()
      .then(send)
      .catch((err: unknown) => this.logger.error({ err }, 'a send off the request path failed'))
      .finally(() => this.#inFlight.delete(running));
    this.#inFlight.add(running);
  }

  /** Waits until no handed send is in flight (those handed meanwhile included). */
  async drain(): Promise<void> {
    while (this.#inFlight.size) await Promise.all([...this.#inFlight]);
  }
}
