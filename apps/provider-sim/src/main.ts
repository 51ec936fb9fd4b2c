import { ConfigError, loadConfig, type SimulatorConfig } from './config';
import { createProviderSimulator } from './simulator';

/** How long a shutdown may take before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 5_000;

async function main(): Promise<void> {
  let config: SimulatorConfig;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`provider-sim: invalid configuration: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }

  const simulator = createProviderSimulator({
    secretKeys: config.secretKeys,
    webhookUrl: config.webhookUrl,
    publicUrl: config.publicUrl,
    transferDelayMs: config.transferDelayMs,
    log: (line) => console.warn(`provider-sim: ${line}`),
  });
  const url = await simulator.listen(config.port, config.host);
  console.log(
    `provider-sim listening on ${url} (${config.secretKeys.length} account(s), callbacks ${config.webhookUrl ? `→ ${config.webhookUrl}` : 'disabled'})`,
  );

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    // Never let a stuck close keep the process around.
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    simulator.close().then(
      () => {
        console.log(`provider-sim stopped (${signal})`);
        process.exitCode = 0;
      },
      (error: unknown) => {
        console.error(`provider-sim: error while stopping: ${String(error)}`);
        process.exitCode = 1;
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`provider-sim: failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
