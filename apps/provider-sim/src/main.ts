import { onShutdown } from '@gateway/platform/process';
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
    callbackConcurrency: config.callbackConcurrency,
    log: (line) => console.warn(`provider-sim: ${line}`),
  });
  const url = await simulator.listen(config.port, config.host);
  console.log(
    `provider-sim listening on ${url} (${config.secretKeys.length} account(s), callbacks ${config.webhookUrl ? `→ ${config.webhookUrl}` : 'disabled'})`,
  );

  onShutdown([{ name: 'simulator', close: () => simulator.close() }], {
    logger: { log: (line) => console.log(`provider-sim: ${line}`), error: (line) => console.error(`provider-sim: ${line}`) },
    deadlineMs: SHUTDOWN_GRACE_MS,
  });
}

main().catch((error: unknown) => {
  console.error(`provider-sim: failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
