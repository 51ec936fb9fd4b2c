import { stopWhenSupervisorDies } from '@gateway/platform';
import { createServer } from 'vite';

/** The portal's Vite server for `npm start`, stopping itself if the supervisor disappears. */
async function main(): Promise<void> {
  const server = await createServer({ configFile: 'apps/portal/vite.config.ts', logLevel: 'warn' });
  await server.listen();
  const stop = () => void server.close().finally(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  stopWhenSupervisorDies(process.env, stop);
}

void main().catch((error: unknown) => {
  process.stderr.write(`portal failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
