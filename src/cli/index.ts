import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, readDotEnv } from '../config/config.ts';
import { serve, work } from '../main.ts';
import { openDatabase } from '../storage/db.ts';
import { migrate } from '../storage/migrate.ts';
import { ADMIN_HELP, adminCommand } from './admin-commands.ts';
import { KYC_HELP, kycCommand } from './kyc-commands.ts';
import { MESSAGES_HELP, messagesCommand } from './messages-commands.ts';
import { SMS_HELP, smsCommand } from './sms-commands.ts';
import { WEBHOOKS_HELP, webhookCommand } from './webhook-commands.ts';

const HELP = `callsign <command>

Commands:
  serve      start the HTTP server and the periodic jobs (the default)
  worker     run the background work only: webhook delivery, purge of deleted accounts, housekeeping
             (with METRICS_TOKEN, also GET /metrics on PORT)
  migrate    apply database migrations and exit
  help       show this text
${ADMIN_HELP}
${WEBHOOKS_HELP}
${SMS_HELP}
${MESSAGES_HELP}
${KYC_HELP}

  These call the running server's admin API at BASE_URL with ADMIN_TOKEN.

Configuration comes from environment variables and a .env file (see docs/configuration.md).`;

/** `--help` or `-h` anywhere asks for the usage, whatever the command: nothing starts. */
const asksForHelp = (argv: string[]) => argv.some((a) => a === '--help' || a === '-h');

async function main(argv: string[]) {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true, strict: false });
  const command = asksForHelp(argv) ? 'help' : (positionals[0] ?? 'serve');
  const env = { ...readDotEnv(), ...process.env };
  switch (command) {
    case 'serve':
      await serve(env);
      return;
    case 'worker':
      await work(env);
      return;
    case 'migrate': {
      const config = loadConfig(env);
      const db = await openDatabase(config.databaseUrl, config.dataDir);
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
      process.stdout.write(`${await adminCommand(loadConfig(env), argv)}\n`);
      return;
    case 'webhooks':
      process.stdout.write(`${await webhookCommand(loadConfig(env), argv)}\n`);
      return;
    case 'sms':
      process.stdout.write(`${await smsCommand(loadConfig(env), argv)}\n`);
      return;
    case 'kyc':
      process.stdout.write(`${await kycCommand(loadConfig(env), argv)}\n`);
      return;
    case 'messages':
      process.stdout.write(`${await messagesCommand(loadConfig(env), argv)}\n`);
      return;
    case 'help':
      process.stdout.write(`${HELP}\n`);
      return;
    default:
      process.stderr.write(`unknown command "${command}"\n\n${HELP}\n`);
      process.exitCode = 2;
  }
}

main(process.argv.slice(2)).catch((err) => {
  // A message for people; the stack only when asked for (DEBUG=1).
  process.stderr.write(`callsign: ${process.env.DEBUG ? (err as Error).stack : (err as Error).message}\n`);
  process.exit(err instanceof ConfigError ? 2 : 1);
});
