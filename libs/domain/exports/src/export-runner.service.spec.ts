import { loadConfig, type Clock } from '@gateway/platform';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExportEntity } from './export.entity';
import { ExportRunner } from './export-runner.service';
import { LocalDirectoryStorage } from './export-storage';
import type { StoredFile } from './exports.repository';

/** The repository's conditional moves, in memory (the SQL is exercised by the e2e suite). */
class FakeRepository {
  row: ExportEntity;
  progressCalls: number[] = [];
  constructor(row: ExportEntity) {
    this.row = row;
  }
  async start(): Promise<number | null> {
    if (!['queued', 'running'].includes(this.row.status)) return null;
    this.row = { ...this.row, status: 'running', attempts: this.row.attempts + 1, rowsDone: 0, rowsTotal: null };
    return this.row.attempts;
  }
  async findById(): Promise<ExportEntity> {
    return this.row;
  }
  private mine(attempt: number) {
    return this.row.status === 'running' && this.row.attempts === attempt;
  }
  async setTotal(_id: string, attempt: number, total: number): Promise<boolean> {
    if (!this.mine(attempt)) return false;
    this.row.rowsTotal = total;
    return true;
  }
  async progress(_id: string, attempt: number, done: number): Promise<boolean> {
    this.progressCalls.push(done);
    if (!this.mine(attempt)) return false;
    this.row.rowsDone = done;
    return true;
  }
  async complete(_id: string, attempt: number, file: StoredFile): Promise<boolean> {
    if (!this.mine(attempt)) return false;
    this.row = { ...this.row, ...file, status: 'completed' };
    return true;
  }
  async stop(_id: string, attempt: number, move: 'requeue' | 'fail', error: string): Promise<void> {
    if (this.mine(attempt)) this.row = { ...this.row, status: move === 'requeue' ? 'queued' : 'failed', error };
  }
}

const queued = (): ExportEntity => ({
  id: 'e1',
  developerId: 'dev',
  mode: 'test',
  reference: 'exp_1',
  type: 'refunds',
  filters: { from: '2026-01-01T00:00:00.000Z', to: '2026-02-01T00:00:00.000Z', currency: null, status: null },
  status: 'queued',
  rowsDone: 0,
  rowsTotal: null,
  fileKey: null,
  fileSize: null,
  contentSha256: null,
  requestedBy: 'key:k',
  notifyEmail: 'owner@example.com',
  error: null,
  attempts: 0,
  createdAt: new Date(),
  startedAt: null,
  heartbeatAt: null,
  completedAt: null,
  expiresAt: null,
  expiredAt: null,
  updatedAt: new Date(),
});

const refund = (i: number) => ({ reference: `R${i}`, payment_reference: `P${i}`, amount: 10.5, currency: 'NGN', reason: null, status: 'processed', created_at: 't', processed_at: null });

describe('ExportRunner', () => {
  let dir: string;
  const now = new Date('2026-11-26T10:00:00.000Z');
  const clock = { now: () => now } as Clock;
  const mails: Array<{ to: string; text: string }> = [];

  function runner(repository: FakeRepository, rows: () => AsyncIterable<object>, count: number, threshold = 100_000) {
    const config = loadConfig({ EXPORT_EMAIL_THRESHOLD_ROWS: String(threshold) });
    const sources = { of: () => ({ currency: false, count: async () => count, rows }) };
    const mailer = { send: async (mail: { to: string; text: string }) => void mails.push(mail) };
    const testClocks = { now: async () => now };
    return new ExportRunner(repository as never, sources as never, new LocalDirectoryStorage(dir), mailer as never, testClocks as never, clock, config);
  }

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'export-runner-'));
    mails.length = 0;
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes every row, records size, checksum and an expiry 7 days after completion, and reports progress every 5,000 rows', async () => {
    const repository = new FakeRepository(queued());
    await runner(repository, async function* () {
      for (let i = 0; i < 12_000; i++) yield refund(i);
    }, 12_000).run('e1', false);
    expect(repository.row).toMatchObject({ status: 'completed', rowsDone: 12_000, rowsTotal: 12_000, fileKey: 'dev/test/exp_1.csv' });
    expect(repository.row.expiresAt?.toISOString()).toBe('2026-12-03T10:00:00.000Z');
    expect(repository.progressCalls.filter((n) => n % 5_000 === 0)).toEqual([5_000, 10_000]);
    const file = await readFile(join(dir, 'dev/test/exp_1.csv'), 'utf8');
    expect(file.split('\n')[1]).toBe('R0,P0,10.50,NGN,,processed,t,');
    expect(Buffer.byteLength(file)).toBe(repository.row.fileSize);
    expect(mails).toEqual([]);
  });

  it('puts a failed attempt back in the queue (and rethrows for the retry), and fails it on the last attempt, leaving no file', async () => {
    const repository = new FakeRepository(queued());
    const broken = async function* () {
      yield refund(1);
      throw new Error('connection reset');
    };
    await expect(runner(repository, broken, 2).run('e1', false)).rejects.toThrow('connection reset');
    expect(repository.row).toMatchObject({ status: 'queued', error: 'read_error', attempts: 1 });
    await runner(repository, broken, 2).run('e1', true);
    expect(repository.row).toMatchObject({ status: 'failed', error: 'read_error', attempts: 2 });
    await expect(readFile(join(dir, 'dev/test/exp_1.csv'))).rejects.toThrow();
  });

  it('stops quietly when a newer attempt took the export over, and ignores a duplicate job of a completed export', async () => {
    const repository = new FakeRepository(queued());
    const overtaken = async function* () {
      for (let i = 0; i < 6_000; i++) {
        if (i === 4_000) repository.row = { ...repository.row, attempts: repository.row.attempts + 1 }; // the stall sweep restarted it elsewhere
        yield refund(i);
      }
    };
    await runner(repository, overtaken, 6_000).run('e1', false);
    expect(repository.row.status).toBe('running'); // the newer attempt's to finish
    repository.row = { ...repository.row, status: 'completed' };
    await runner(repository, overtaken, 6_000).run('e1', false);
    expect(repository.row.attempts).toBe(2);
  });

  it('e-mails the requester a link to the Reports page above the threshold', async () => {
    const repository = new FakeRepository(queued());
    await runner(repository, async function* () {
      for (let i = 0; i < 3; i++) yield refund(i);
    }, 3, 2).run('e1', false);
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toBe('owner@example.com');
    expect(mails[0].text).toContain('/#/reports?export=exp_1');
  });
});
