import type { Channel, MessagingProvider, OutgoingMessage, SentMessage } from './provider.ts';

/** Bold yellow on a black band, then back to normal: ANSI's select-graphic-rendition codes. */
const HIGHLIGHT_ON = '\u001b[1;33;40m';
const HIGHLIGHT_OFF = '\u001b[0m';

/**
 * The development default: prints each message to stdout, apart from the log, so a developer can read the
 * code. On a terminal the line is set apart by blank lines and a highlight, so it stands out among the log
 * lines. It carries every channel, each printed as its text.
 */
export class ConsoleMessages implements MessagingProvider {
  readonly channels: readonly Channel[] = ['sms', 'whatsapp', 'voice'];
  constructor(
    readonly name = 'console',
    private readonly write: (line: string) => void = (line) => process.stdout.write(line),
    private readonly highlight: boolean = process.stdout.isTTY === true,
  ) {}

  async send({ to, channel, text }: OutgoingMessage): Promise<SentMessage> {
    const line = `[${channel}:console] to ${to}: ${text.replaceAll('\n', ' ')}`;
    this.write(this.highlight ? `\n${HIGHLIGHT_ON} ${line} ${HIGHLIGHT_OFF}\n\n` : `${line}\n`);
    return {};
  }
}
