import { parseArgs } from 'node:util';
import { loadAdminClientSettings } from '../config/admin-client-settings.ts';
import { ConfigError } from '../config/config-error.ts';
import { readDotEnv } from '../config/env-reader.ts';
import { ADMIN_HELP, adminCommand } from './admin-commands.ts';
import { KYC_HELP, kycCommand } from './kyc-commands.ts';
import { MESSAGES_HELP, messagesCommand } from './messages-commands.ts';
import { PHONE_HELP, phoneCommand } from './phone-commands.ts';
import { SMS_HELP, smsCommand } from './sms-commands.ts';
import { usageOf } from './usage.ts';
import { USERS_HELP, usersCommand } from './user-commands.ts';
import { WEBHOOKS_HELP, webhookCommand } from './webhook-commands.ts';

const HELP = `Usage: callsign <command> [options]

Commands:
  serve      start the HTTP server and the periodic jobs (the default)
  worker     run the background work only: webhook delivery, purge of deleted accounts, housekeeping
             (with METRICS_TOKEN, also GET /metrics on PORT)
  migrate    apply database migrations and exit
  help       show this text (help COMMAND, or COMMAND --help: that command's usage)
${ADMIN_HELP}
${WEBHOOKS_HELP}
${SMS_HELP}
${MESSAGES_HELP}
${KYC_HELP}
${PHONE_HELP}
${USERS_HELP}

  These call the running server's admin API with ADMIN_TOKEN, where --admin-url URL says (or CALLSIGN_ADMIN_URL),
  else on this machine at the server's PORT (and HOST): run them beside the server, or in its container.

Configuration comes from environment variables and a .env file (see docs/configuration.md).`;

/**
 * `--admin-url URL` (or `--admin-url=URL`), anywhere: where the admin commands reach the server; and the rest of
 * the words. (`--url` is a webhook endpoint's own address.)
 */
function withoutUrl(argv: string[]): { args: string[]; url?: string } {
  const flag = '--admin-url';
  const at = argv.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
  if (at < 0) return { args: argv };
  const url = argv[at] === flag ? argv[at + 1] : argv[at].slice(flag.length + 1);
  const args = argv.filter((_, i) => i !== at && !(argv[at] === flag && i === at + 1));
  return { args, url };
}

/** `--help` or `-h` anywhere asks for the usage, whatever the command: nothing starts. */
const asksForHelp = (argv: string[]) => argv.some((a) => a === '--help' || a === '-h');

/** The commands that take an action (`clients create`, `sms countries`, ...). */
const GROUPS = new Set([
  'clients',
  'api-keys',
  'keys',
  'actions',
  'webhooks',
  'sms',
  'kyc',
  'messages',
  'phone',
  'users',
]);
const SINGLE = new Set(['serve', 'worker', 'migrate']);

/** A command's usage, or the whole help for `help` and anything unknown. */
const usageFor = (command: string | undefined) =>
  (command && (GROUPS.has(command) || SINGLE.has(command)) && usageOf(HELP, command, GROUPS.has(command))) ||
  HELP;

async function main(words: string[]) {
  const { args: argv, url } = withoutUrl(words);
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, strict: false });
  const named = positionals[0];
  if (asksForHelp(argv) || named === 'help') {
    process.stdout.write(`${usageFor(named === 'help' ? positionals[1] : named)}\n`);
    return;
  }
  const command = named ?? 'serve';
  // A command that takes an action, named without one: its usage, as a mistake.
  if (GROUPS.has(command) && positionals[1] === undefined) {
    process.stderr.write(`${usageFor(command)}\n`);
    process.exitCode = 2;
    return;
  }
  const env = { ...readDotEnv(), ...process.env, ...(url ? { CALLSIGN_ADMIN_URL: url } : {}) };
  // The service's own modules (the HTTP server, the database drivers) load only for the commands that run it:
  // the commands that call the admin API start in a fraction of the time.
  switch (command) {
    case 'serve':
      await (await import('../process/main.ts')).serve(env);
      return;
    case 'worker':
      await (await import('../process/main.ts')).work(env);
      return;
    case 'migrate': {
      const config = (await import('../config/config.ts')).loadConfig(env);
      const [{ openDatabase }, { migrate }] = await Promise.all([
        import('../storage/db.ts'),
        import('../storage/migrate.ts'),
      ]);
      const db = await openDatabase(config, config.dataDir);
      try {
        const applied = await migrate(db);
        process.stdout.write(
          applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n',
        );
      } finally {
        await db.close();
      }
      return;
    }
    case 'clients':
    case 'api-keys':
    case 'keys':
    case 'actions':
      process.stdout.write(`${await adminCommand(loadAdminClientSettings(env), argv)}\n`);
      return;
    case 'webhooks':
      process.stdout.write(`${await webhookCommand(loadAdminClientSettings(env), argv)}\n`);
      return;
    case 'sms':
      process.stdout.write(`${await smsCommand(loadAdminClientSettings(env), argv)}\n`);
      return;
    case 'kyc':
      process.stdout.write(`${await kycCommand(loadAdminClientSettings(env), argv)}\n`);
      return;
    case 'messages':
      process.stdout.write(`${await messagesCommand(loadAdminClientSettings(env), argv)}\n`);
      return;
    case 'phone':
      process.stdout.write(`${await phoneCommand(loadAdminClientSettings(env), argv)}\n`);
      return;
    case 'users':
      process.stdout.write(`${await usersCommand(loadAdminClientSettings(env), argv)}\n`);
      return;
    default:
      process.stderr.write(`callsign: unknown command "${command}"\n\n${HELP}\n`);
      process.exitCode = 2;
  }
}

main(process.argv.slice(2)).catch((err) => {
  // A message for people; the stack only when asked for (DEBUG=1).
  process.stderr.write(`callsign: ${process.env.DEBUG ? (err as Error).stack : (err as Error).message}\n`);
  process.exit(err instanceof ConfigError ? 2 : 1);
});
