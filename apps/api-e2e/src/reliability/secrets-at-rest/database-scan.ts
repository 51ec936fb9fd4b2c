import { Client } from 'pg';
import { type Finding, type KnownSecrets, secretsIn, sqlPrefilter } from './patterns';

/**
 * Columns that hold ciphertext by design (AES-256-GCM, `v1.<key id>.<iv>.<tag>.<ciphertext>`,
 * libs/platform/src/crypto/encryption.ts): every value must be sealed, so a plaintext secret
 * written there instead is found even when it matches no pattern. Also every column named
 * `*_ciphertext` or `*_sealed`, so a new encrypted column is held to it without being listed.
 */
const CIPHERTEXT_COLUMNS = new Set(['idempotency_keys.response_body']);
const SEALED = /^v1\.[A-Za-z0-9_-]{1,32}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

const isCiphertextColumn = (table: string, column: string) => CIPHERTEXT_COLUMNS.has(`${table}.${column}`) || /_(ciphertext|sealed)$/.test(column);

/** The merchant's own content, kept as sent (docs: payments, customers, subaccounts, payment intents). */
const isMetadataKey = (key: string) => key.toLowerCase() === 'metadata';

export interface DatabaseScan {
  database: string;
  tables: number;
  columns: number;
  /** Values read in full (the prefilter lets through only those that could hold a secret, and every ciphertext). */
  valuesRead: number;
  findings: Finding[];
}

interface TextColumn {
  schema: string;
  table: string;
  column: string;
  /** `bytea` is read as escaped text; everything else as its text form. */
  binary: boolean;
  json: boolean;
}

/**
 * Reads every text-bearing column (text, varchar, char, json, jsonb, bytea, arrays of text) of
 * every table of the database — the gateway's and the job queue's schemas; partitions through
 * their parent table — and reports each secret in clear (patterns.ts). A JSON value is walked:
 * what lies under a `metadata` key, like a `metadata` column, is the merchant's own content.
 */
export async function scanDatabase(url: string, known: KnownSecrets): Promise<DatabaseScan> {
  const client = new Client({ connectionString: url });
  await client.connect();
  const database = new URL(url).pathname.slice(1);
  try {
    const columns = await textColumns(client);
    const byTable = new Map<string, TextColumn[]>();
    for (const c of columns) byTable.set(`${c.schema}.${c.table}`, [...(byTable.get(`${c.schema}.${c.table}`) ?? []), c]);
    const findings: Finding[] = [];
    let valuesRead = 0;
    const prefilter = sqlPrefilter(known);
    for (const [qualified, tableColumns] of byTable) {
      const expression = (c: TextColumn) => (c.binary ? `encode(${quote(c.column)}, 'escape')` : `${quote(c.column)}::text`);
      const select = tableColumns.map((c, i) => `${expression(c)} AS c${i}`).join(', ');
      const where = tableColumns.map((c) => (isCiphertextColumn(c.table, c.column) ? `${quote(c.column)} IS NOT NULL` : `${expression(c)} ~ $1`)).join(' OR ');
      const rows = await client.query<Record<string, string | null>>(`SELECT ${select} FROM ${qualified.split('.').map(quote).join('.')} WHERE ${where}`, where.includes('$1') ? [prefilter] : []);
      for (const row of rows.rows) {
        tableColumns.forEach((c, i) => {
          const value = row[`c${i}`];
          if (value === null || value === undefined) return;
          valuesRead++;
          const place = `${database} ${qualified}.${c.column}`;
          if (isCiphertextColumn(c.table, c.column) && !SEALED.test(value)) findings.push({ place, kind: 'not ciphertext in an encrypted column', excerpt: `${value.slice(0, 6)}…` });
          findings.push(...secretsInValue(value, place, c.json, isMetadataKey(c.column), known));
        });
      }
    }
    return { database, tables: byTable.size, columns: columns.length, valuesRead, findings };
  } finally {
    await client.end();
  }
}

async function textColumns(client: Client): Promise<TextColumn[]> {
  const rows = await client.query<{ schema: string; table: string; column: string; type: string }>(`
    SELECT n.nspname AS schema, c.relname AS table, a.attname AS column, t.typname AS type
      FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      JOIN pg_type t ON t.oid = a.atttypid
      LEFT JOIN pg_type e ON e.oid = t.typelem AND t.typcategory = 'A'
     WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
       AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
       AND (t.typcategory = 'S' OR t.typname IN ('json', 'jsonb', 'bytea', 'xml') OR e.typcategory = 'S' OR e.typname IN ('json', 'jsonb'))
     ORDER BY 1, 2, a.attnum`);
  return rows.rows.map((r) => ({ schema: r.schema, table: r.table, column: r.column, binary: r.type === 'bytea', json: r.type === 'json' || r.type === 'jsonb' }));
}

/** A text, or a JSON document walked value by value (keys included) so that merchant metadata is told apart. */
function secretsInValue(value: string, place: string, json: boolean, metadata: boolean, known: KnownSecrets): Finding[] {
  const trimmed = value.trimStart();
  if (json || trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return walk(JSON.parse(value), place, metadata, known);
    } catch {
      // Not JSON after all: read as text below.
    }
  }
  return secretsIn(value, place, metadata, known);
}

function walk(value: unknown, place: string, metadata: boolean, known: KnownSecrets): Finding[] {
  if (typeof value === 'string') return secretsIn(value, place, metadata, known);
  if (typeof value === 'number') return secretsIn(String(value), place, metadata, known);
  if (Array.isArray(value)) return value.flatMap((item) => walk(item, place, metadata, known));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => [
      ...secretsIn(key, place, metadata, known),
      ...walk(item, place, metadata || isMetadataKey(key), known),
    ]);
  }
  return [];
}

function quote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}
