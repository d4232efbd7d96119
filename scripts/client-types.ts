// Writes the types of @callsign/client from the server's own sources, so the client can never drift from the
// API: `npm run client:types`. `generated/openapi.ts` from /openapi.json, `generated/error-codes.ts` from the
// domain's error codes. A test (test/client/client-package.test.ts) fails when a committed file differs from
// what this writes.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS from 'openapi-typescript';
import { buildContainer } from '../src/composition/container.ts';
import { loadConfig } from '../src/config/config.ts';
import { ERROR_CODES } from '../src/domain/errors.ts';
import { buildApp } from '../src/http/app.ts';
import { createLogger } from '../src/observability/logger.ts';

export const CLIENT_TYPES_FILE = fileURLToPath(
  new URL('../packages/client/src/generated/openapi.ts', import.meta.url),
);

const HEADER = `// Generated from Callsign's /openapi.json by \`npm run client:types\`; do not edit by hand.
`;

export const ERROR_CODES_FILE = fileURLToPath(
  new URL('../packages/client/src/generated/error-codes.ts', import.meta.url),
);

/** The error codes' file: every code the server's domain answers with, as one type. */
export const errorCodesText = () =>
  `// Generated from Callsign's domain error codes by \`npm run client:types\`; do not edit by hand.

/** Every error code the server answers with (the API reference says what each means). */
export type ServerErrorCode =
${ERROR_CODES.map((code) => `  | '${code}'`).join('\n')};
`;

/** The file's text for an OpenAPI document. */
export async function clientTypesOf(document: unknown): Promise<string> {
  // biome-ignore lint/suspicious/noExplicitAny: openapi-typescript takes the parsed document as it is
  return HEADER + (await openapiTS(document as any));
}

async function main() {
  const config = loadConfig({ APP_ENV: 'development', DATABASE_URL: 'memory://', LOG_LEVEL: 'warn' });
  const container = await buildContainer(config, { logger: createLogger('warn', process.stderr) });
  const app = await buildApp(container);
  try {
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    writeFileSync(CLIENT_TYPES_FILE, await clientTypesOf(document));
    writeFileSync(ERROR_CODES_FILE, errorCodesText());
    process.stdout.write(`wrote ${CLIENT_TYPES_FILE} and ${ERROR_CODES_FILE}\n`);
  } finally {
    await app.close();
    await container.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
