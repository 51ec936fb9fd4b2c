import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { query } from './support/db';
import { type TestGateway, startGateway } from './support/gateway';
import { PortalClient, signedInPlatformUser } from './support/portal-client';
import { type SchedulerProcess, startScheduler } from './support/scheduler-process';

jest.setTimeout(90_000);

interface ReceivedMail {
  to: string[];
  text: string;
}

/** A mail server on loopback that accepts everything (or, while `refusing`, refuses every message). */
class TestMailServer {
  readonly received: ReceivedMail[] = [];
  refusing = false;
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData: (stream, session, callback) => {
      let text = '';
      stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
      stream.on('end', () => {
        if (this.refusing) return callback(Object.assign(new Error('mailbox busy, try later'), { responseCode: 451 }));
        this.received.push({ to: session.envelope.rcptTo.map((r) => r.address), text });
        callback();
      });
    },
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }

  async waitFor(to: string, timeoutMs = 30_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mail = this.received.find((m) => m.to.includes(to));
      if (mail) return mail;
      if (Date.now() > deadline) throw new Error(`no mail to ${to} arrived`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The text of a message sent quoted-printable (soft line breaks joined, `=XX` escapes decoded). */
function quotedPrintableDecoded(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** With SMTP_URL, portal e-mails go through the job queue: the request never waits on the mail server. */
describe('portal e-mail through the job queue', () => {
  let mailServer: TestMailServer;
  let gateway: TestGateway;
  let scheduler: SchedulerProcess | undefined;
  let env: Record<string, string>;

  beforeAll(async () => {
    mailServer = new TestMailServer();
    env = { SMTP_URL: await mailServer.start(), ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}` };
    gateway = await startGateway(env);
  });
  afterAll(async () => {
    await scheduler?.stop();
    await gateway?.close();
    await mailServer?.close();
  });

  const queued = (recipient: string) => query<{ body_sealed: string }>('SELECT body_sealed FROM outbound_mails WHERE recipient = $1', [recipient]);

  it('queues a reset mail sealed, sends it from the scheduler, retries while the mail server refuses, and the link works', async () => {
    const { email } = await signedInPlatformUser(gateway);
    const visitor = new PortalClient(gateway.baseUrl);
    await visitor.fetchCsrf();

    mailServer.refusing = true;
    const asked = await visitor.post('/api/portal/auth/password-reset', { body: { email } });
    expect(asked.status).toBe(202);
    // Answered without the mail server: the mail waits in the queue, its link token sealed.
    const [row] = await queued(email);
    expect(row.body_sealed).toMatch(/^v1\./);
    expect(row.body_sealed).not.toContain('password-reset');
    expect(mailServer.received).toHaveLength(0);

    scheduler = await startScheduler({ ...env, DATABASE_URL: process.env.TEST_DATABASE_URL as string });
    // The first attempt is refused (451): the job stays queued for a retry, the mail is kept.
    const attempts = async () => (await query<{ attempts: number }>(`SELECT attempts FROM graphile_worker.jobs WHERE task_identifier = 'send_mail'`))[0]?.attempts ?? 0;
    for (let i = 0; i < 150 && (await attempts()) < 1; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await attempts()).toBe(1);
    expect(mailServer.received).toHaveLength(0);
    expect(await queued(email)).toHaveLength(1);
    mailServer.refusing = false;
    // Run the retry now instead of after graphile-worker's backoff.
    await query(`UPDATE graphile_worker._private_jobs SET run_at = now() WHERE task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = 'send_mail')`);

    const mail = await mailServer.waitFor(email);
    const token = /#\/password-reset\?token=([A-Za-z0-9_-]+)/.exec(quotedPrintableDecoded(mail.text))?.[1];
    expect(token).toBeDefined();
    const confirmed = await visitor.post('/api/portal/auth/password-reset/confirm', { body: { token, password: 'a completely new passphrase' } });
    expect(confirmed.status).toBe(200);
    expect(await queued(email)).toHaveLength(0);
    expect(mailServer.received.filter((m) => m.to.includes(email))).toHaveLength(1);
  });
});
