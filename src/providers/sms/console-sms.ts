import type { SmsProvider } from './sms-provider.ts';

/** D37: development default. Prints the text to stdout, apart from the JSON log, so a developer can read it. */
export class ConsoleSms implements SmsProvider {
  readonly name = 'console';
  constructor(private readonly write: (line: string) => void = (line) => process.stdout.write(line)) {}

  async send(to: string, message: string): Promise<void> {
    this.write(`[sms:console] to ${to}: ${message}\n`);
  }
}
