import type { SmsProvider } from './sms-provider.ts';

/** Bold yellow on a black band, then back to normal: ANSI's select-graphic-rendition codes. */
const HIGHLIGHT_ON = '\u001b[1;33;40m';
const HIGHLIGHT_OFF = '\u001b[0m';

/**
 * The development default: prints each text to stdout, apart from the log, so a developer can read the code.
 * On a terminal the line is set apart by blank lines and a highlight, so it stands out among the log lines.
 */
export class ConsoleSms implements SmsProvider {
  readonly name = 'console';
  constructor(
    private readonly write: (line: string) => void = (line) => process.stdout.write(line),
    private readonly highlight: boolean = process.stdout.isTTY === true,
  ) {}

  async send(to: string, message: string): Promise<void> {
    const line = `[sms:console] to ${to}: ${message}`;
    this.write(this.highlight ? `\n${HIGHLIGHT_ON} ${line} ${HIGHLIGHT_OFF}\n\n` : `${line}\n`);
  }
}
