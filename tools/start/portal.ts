import { onShutdown } from '@gateway/platform';
import { createServer } from 'vite';

/** The portal's Vite server for `npm start`, stopping itself if the supervisor disappears. */
async function main(): Promise<void> {
  const server = await createServer({ configFile: 'apps/portal/vite.config.ts', logLevel: 'warn' });
  await server.listen();
  process.stdout.write(`portal listening on ${server.resolvedUrls?.local[0] ?? `port ${server.config.server.port}`}\n`);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  onShutdown([{ name: 'Vite server', close: () => server.close() }], { logger: { log, error: log } });
}

void main().catch((error: unknown) => {
  process.stderr.write(`portal failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
