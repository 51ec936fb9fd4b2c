import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '../../../..');
const OWNER = 'libs/domain/webhooks/';
/** The events outbox and its delivery: written by this capability only (docs/architecture.md). */
const OWNED_TABLES = ['events', 'webhook_endpoints', 'webhook_deliveries', 'webhook_delivery_logs', 'event_feed_listeners', 'webhook_endpoint_attempt_days'];
const WRITE = new RegExp(String.raw`\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|TRUNCATE(?:\s+TABLE)?)\s+"?(${OWNED_TABLES.join('|')})"?(?![\w.])`, 'gi');
/** Tests arrange rows directly and migrations create the tables: only running code is held to the rule. */
const NOT_RUNNING_CODE = /(\.(spec|int-spec|e2e-spec|type-spec|browser-spec)\.tsx?$)|\/migrations\//;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !NOT_RUNNING_CODE.test(path) ? [path] : [];
  });
}

describe('one owner for the outbox', () => {
  it('no code outside the webhooks capability writes events, webhook_endpoints, webhook_deliveries, webhook_delivery_logs, event_feed_listeners or webhook_endpoint_attempt_days', () => {
    const files = [...sourceFiles(join(ROOT, 'libs')), ...sourceFiles(join(ROOT, 'apps'))].map((path) => relative(ROOT, path));
    expect(files).toContain('libs/domain/webhooks/src/webhooks.service.ts'); // the scan does read the tree
    const writes = files
      .filter((file) => !file.startsWith(OWNER))
      .flatMap((file) => [...readFileSync(join(ROOT, file), 'utf8').matchAll(WRITE)].map((match) => `${file}: ${match[0].replace(/\s+/g, ' ')}`));
    expect(writes).toEqual([]);
  });

  it('recognises a write to an owned table, and not one to a table that merely shares a prefix', () => {
    const found = (sql: string) => [...sql.matchAll(WRITE)].map((match) => match[1]);
    expect(found(`INSERT INTO webhook_deliveries (id) VALUES ($1)`)).toEqual(['webhook_deliveries']);
    expect(found(`UPDATE "events" SET name = $1`)).toEqual(['events']);
    expect(found(`delete from webhook_endpoints where id = $1`)).toEqual(['webhook_endpoints']);
    expect(found(`INSERT INTO events_archive (id) VALUES ($1); UPDATE provider_events SET x = 1`)).toEqual([]);
  });
});
