import { onShutdown } from './on-shutdown';

/**
 * A process that stops through onShutdown, for on-shutdown.spec.ts. STEPS lists its close steps as
 * `name:outcome`, outcome `ok`, `fail` or `hang`; each step prints when it runs.
 */
const steps = (process.env.STEPS ?? '').split(',').filter(Boolean).map((spec) => {
  const [name, outcome] = spec.split(':');
  return {
    name,
    close: async () => {
      process.stdout.write(`closing ${name}\n`);
      await new Promise((resolve) => setTimeout(resolve, 300)); // long enough for a test to signal again meanwhile
      if (outcome === 'fail') throw new Error(`${name} refused`);
      if (outcome === 'hang') await new Promise(() => undefined);
    },
  };
});
onShutdown(steps, {
  logger: { log: (line) => process.stdout.write(`log: ${line}\n`), error: (line) => process.stdout.write(`error: ${line}\n`) },
  deadlineMs: Number(process.env.DEADLINE_MS ?? 10_000),
});
setInterval(() => undefined, 60_000); // a server's open handles: only the shutdown ends the process
process.stdout.write('ready\n');
