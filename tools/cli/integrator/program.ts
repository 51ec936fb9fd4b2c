import { EVENT_NAMES, WEBHOOK_VERSIONS, type WebhookVersion } from '@gateway/contracts/events';
import { Command, Option } from 'commander';
import { GatewayClient } from './gateway-client';
import { listen, type Output } from './listen';
import { tailLogs } from './logs-tail';
import type { SandboxSettings } from './settings';
import { NOT_TRIGGERABLE, trigger, TRIGGERS } from './triggers';

export interface SandboxIo {
  out: Output;
  /** Read on the first command that needs them, so `--help` works without a key. */
  settings: () => SandboxSettings;
  /** Fires on Ctrl-C: following commands stop and return. */
  signal: AbortSignal;
}

/** The sandbox CLI's commands (`npm run sandbox -- <command>`). */
export function buildSandboxProgram(io: SandboxIo): Command {
  const client = () => {
    const settings = io.settings();
    return new GatewayClient(settings.apiUrl, settings.secretKey);
  };
  const program = new Command('sandbox')
    .description(
      'Tools for integrating with the gateway in test mode: forward test events to a local server, cause them, follow the request log.\n' +
        'Environment: GATEWAY_SECRET_KEY (a test secret key, sk_test_…; live keys are refused), GATEWAY_API_URL (default http://127.0.0.1:3000).',
    )
    .showHelpAfterError()
    .exitOverride();

  program
    .command('listen')
    .description("Forward the account's test events, from now on, to a server on this machine, signed like webhook deliveries")
    .requiredOption('--forward-to <url>', 'where to POST each event: http(s)://localhost:PORT/path (this machine only)')
    .option('--events <names>', 'only these events, comma-separated (default: all)')
    .addOption(new Option('--webhook-version <version>', 'payload format, as an endpoint chooses it').choices([...WEBHOOK_VERSIONS]).default('v1'))
    .option('--secret <secret>', 'sign with this secret instead of a new one for the session (e.g. the one your server is configured with)')
    .action((o: { forwardTo: string; events?: string; webhookVersion: WebhookVersion; secret?: string }) =>
      listen(client(), { forwardTo: o.forwardTo, events: o.events?.split(',').map((name) => name.trim()), webhookVersion: o.webhookVersion, secret: o.secret }, io.out, io.signal),
    );

  const triggerable = Object.entries(TRIGGERS).map(([name, t]) => `  ${name.padEnd(26)} ${t?.how}`);
  const other = EVENT_NAMES.filter((name) => !Object.hasOwn(TRIGGERS, name)).map((name) => `  ${name.padEnd(26)} ${NOT_TRIGGERABLE[name] ?? 'not from the sandbox'}`);
  program
    .command('trigger')
    .description('Cause an event in test mode by the API calls that emit it')
    .argument('<event>', 'an event name, e.g. payment.success')
    .option('--json', 'print what was created as JSON', false)
    .addHelpText('after', `\nEvents it can trigger:\n${triggerable.join('\n')}\n\nEvents it cannot:\n${other.join('\n')}`)
    .action(async (event: string, o: { json: boolean }) => {
      const created = await trigger(client(), event, (step) => io.out.note(step));
      io.out.line(o.json ? JSON.stringify({ event, created }) : `Triggered ${event}: ${Object.entries(created).map(([kind, id]) => `${kind} ${id}`).join(', ')}`);
    });

  program
    .command('logs')
    .description('The request log')
    .command('tail')
    .description("Follow the account's test-mode API requests as the gateway logs them (about a second after each answer)")
    .option('--status <status>', 'only this status class (4xx, 5xx) or code (404)')
    .option('--path <text>', 'only paths containing this text, e.g. customers')
    .option('--json', 'print each entry as JSON (bodies redacted)', false)
    .action((o: { status?: string; path?: string; json: boolean }) => tailLogs(client(), o, io.out, io.signal));

  return program;
}
