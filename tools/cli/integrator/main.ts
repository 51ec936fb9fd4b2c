import 'reflect-metadata';
import { CommanderError } from 'commander';
import { ApiError } from './gateway-client';
import { buildSandboxProgram } from './program';
import { loadSettings } from './settings';

/**
 * The sandbox CLI for integrators: `npm run sandbox -- listen | trigger | logs tail`. A client of
 * the merchant API with a test secret key; it needs no database and no inbound port.
 */
async function main(argv: string[]): Promise<number> {
  const stop = new AbortController();
  let stops = 0;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      stops += 1;
      // A second Ctrl-C does not wait for the request in flight.
      if (stops > 1) process.exit(130);
      stop.abort();
    });
  }
  const program = buildSandboxProgram({
    out: { line: (text) => process.stdout.write(`${text}\n`), note: (text) => process.stderr.write(`${text}\n`) },
    settings: () => loadSettings(),
    signal: stop.signal,
  });
  try {
    await program.parseAsync(argv);
    if (stop.signal.aborted) process.stderr.write('Stopped.\n');
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    const message = error instanceof ApiError ? `the gateway refused: ${error.status} ${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error);
    process.stderr.write(`error: ${message}\n`);
    return 1;
  }
}

main(process.argv).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
