import type { INestApplicationContext } from '@nestjs/common';
import { createDomainTestContext } from '@gateway/platform/testing';
import { DataSource } from 'typeorm';
import { AuditModule } from './audit.module';
import { AuditService } from './audit.service';

describe('AuditService', () => {
  let app: INestApplicationContext;
  let audit: AuditService;
  let dataSource: DataSource;
  const developerId = '6f1c2a52-0d7e-4c55-9d0e-1a2b3c4d5e6f';
  const actor = { type: 'user' as const, id: 'u1', label: 'owner@example.com', ip: '203.0.113.7' };

  beforeAll(async () => {
    ({ app } = await createDomainTestContext([AuditModule]));
    audit = app.get(AuditService);
    dataSource = app.get(DataSource);
  });
  afterAll(() => app.close());

  it('records in the caller transaction: a rolled-back action leaves no row', async () => {
    await dataSource
      .transaction(async (m) => {
        await audit.record(m, { actor, action: 'rolled.back', developerId });
        throw new Error('the action failed');
      })
      .catch(() => undefined);
    expect((await audit.list({ action: 'rolled.back' }, { limit: 10 })).items).toEqual([]);
  });

  it('lists newest first with filters and keyset pages, and streams the same rows', async () => {
    for (const n of [1, 2, 3]) {
      await dataSource.transaction((m) => audit.record(m, { actor, action: 'test.paged', developerId, target: { type: 'thing', id: `t${n}` }, after: { n } }));
    }
    const first = await audit.list({ action: 'test.paged', developerId }, { limit: 2 });
    const second = await audit.list({ action: 'test.paged', developerId }, { limit: 2, cursor: first.nextCursor ?? undefined });
    const ids = [...first.items, ...second.items].map((e) => e.target?.id);
    expect(ids).toEqual(['t3', 't2', 't1']);
    expect(second.hasMore).toBe(false);
    expect(first.items[0]).toMatchObject({ actor: { type: 'user', id: 'u1', label: 'owner@example.com' }, ip: '203.0.113.7', after: { n: 3 } });
    const streamed: string[] = [];
    for await (const event of audit.stream({ action: 'test.paged', actor: 'OWNER@example.com' })) streamed.push(event.target?.id ?? '');
    expect(streamed).toEqual(ids);
    const later = await audit.after({ action: 'test.paged' }, first.items[1].seq);
    expect(later.map((e) => e.target?.id)).toEqual(['t3']);
  });

  it('pages through more rows than two pages hold without skipping any', async () => {
    const other = '7a1c2a52-0d7e-4c55-9d0e-1a2b3c4d5e6f';
    for (let n = 1; n <= 8; n++) {
      await dataSource.transaction((m) => audit.record(m, { actor, action: 'test.many', developerId: other, target: { type: 'thing', id: `m${n}` } }));
    }
    const first = await audit.list({ developerId: other }, { limit: 3 });
    const second = await audit.list({ developerId: other }, { limit: 3, cursor: first.nextCursor ?? undefined });
    const third = await audit.list({ developerId: other }, { limit: 3, cursor: second.nextCursor ?? undefined });
    expect([first, second, third].map((p) => p.items.map((e) => e.target?.id))).toEqual([
      ['m8', 'm7', 'm6'],
      ['m5', 'm4', 'm3'],
      ['m2', 'm1'],
    ]);
  });

  it('refuses UPDATE and DELETE of a recorded row', async () => {
    await dataSource.transaction((m) => audit.record(m, { actor, action: 'test.immutable', developerId }));
    await expect(dataSource.query(`UPDATE audit_events SET action = 'forged' WHERE action = 'test.immutable'`)).rejects.toThrow(/append-only/);
    await expect(dataSource.query(`DELETE FROM audit_events WHERE action = 'test.immutable'`)).rejects.toThrow(/append-only/);
  });
});
