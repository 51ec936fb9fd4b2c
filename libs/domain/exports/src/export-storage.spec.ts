import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type ExportStorage, LocalDirectoryStorage, S3Storage } from './export-storage';

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

async function save(storage: ExportStorage, key: string, content: string): Promise<void> {
  const writer = storage.open(key);
  await pipeline(Readable.from([content]), writer.sink);
  await writer.commit();
}

/**
 * The part of the S3 protocol the storage uses (path-style PutObject, GetObject, DeleteObject),
 * in memory on 127.0.0.1:0. Enough to prove the adapter's requests and error mapping; multipart
 * uploads (files over 8 MiB) are exercised against a real store only (docs/exports.md).
 */
function fakeS3(): { server: Server; objects: Map<string, Buffer>; requests: string[] } {
  const objects = new Map<string, Buffer>();
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '').split('?')[0]);
    requests.push(`${req.method} ${path}`);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'PUT') {
        objects.set(path, Buffer.concat(chunks));
        res.writeHead(200, { etag: '"e"' }).end();
      } else if (req.method === 'GET') {
        const body = objects.get(path);
        if (!body) {
          res.writeHead(404, { 'content-type': 'application/xml' }).end('<?xml version="1.0"?><Error><Code>NoSuchKey</Code><Message>missing</Message></Error>');
        } else {
          res.writeHead(200, { 'content-length': String(body.length), 'content-type': 'text/csv' }).end(body);
        }
      } else if (req.method === 'DELETE') {
        objects.delete(path);
        res.writeHead(204).end();
      } else {
        res.writeHead(405).end();
      }
    });
  });
  return { server, objects, requests };
}

describe('LocalDirectoryStorage', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'exports-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes a file whole on commit, reads it back with its size, and replaces it on a rewrite', async () => {
    const storage = new LocalDirectoryStorage(dir);
    await save(storage, 'dev/test/exp_1.csv', 'a,b\n1,2\n');
    const read = await storage.read('dev/test/exp_1.csv');
    expect([read?.size, await text(read?.body as Readable)]).toEqual([8, 'a,b\n1,2\n']);
    await save(storage, 'dev/test/exp_1.csv', 'a\n');
    expect(await text((await storage.read('dev/test/exp_1.csv'))?.body as Readable)).toBe('a\n');
  });

  it('leaves nothing behind when a write is aborted, and deleting is idempotent', async () => {
    const storage = new LocalDirectoryStorage(dir);
    const writer = storage.open('dev/test/exp_2.csv');
    writer.sink.write('half a file');
    await writer.abort();
    expect(await storage.read('dev/test/exp_2.csv')).toBeNull();
    expect(await readdir(join(dir, 'dev/test'))).toEqual([]);
    await save(storage, 'dev/test/exp_3.csv', 'x');
    await storage.delete('dev/test/exp_3.csv');
    await storage.delete('dev/test/exp_3.csv');
    expect(await storage.read('dev/test/exp_3.csv')).toBeNull();
  });

  it('refuses a key that could leave its directory', () => {
    const storage = new LocalDirectoryStorage(dir);
    expect(() => storage.open('../../etc/passwd.csv')).toThrow(/invalid export file key/);
  });
});

describe('S3Storage (against an in-process fake S3 endpoint)', () => {
  const fake = fakeS3();
  let storage: S3Storage;
  beforeAll(async () => {
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    const { port } = fake.server.address() as AddressInfo;
    storage = new S3Storage({
      kind: 's3',
      bucket: 'exports',
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      accessKeyId: 'minio',
      secretAccessKey: 'minio-secret',
      forcePathStyle: true,
    });
  });
  afterAll(async () => {
    await new Promise((resolve) => fake.server.close(resolve));
  });

  it('uploads, reads back, and deletes an object in the bucket by path-style key', async () => {
    await save(storage, 'dev/live/exp_9.csv', 'reference,amount\nPAY_1,1234.50\n');
    expect(fake.objects.get('/exports/dev/live/exp_9.csv')?.toString()).toBe('reference,amount\nPAY_1,1234.50\n');
    const read = await storage.read('dev/live/exp_9.csv');
    expect([read?.size, await text(read?.body as Readable)]).toEqual([31, 'reference,amount\nPAY_1,1234.50\n']);
    await storage.delete('dev/live/exp_9.csv');
    expect(fake.objects.has('/exports/dev/live/exp_9.csv')).toBe(false);
    expect(await storage.read('dev/live/exp_9.csv')).toBeNull();
  });

  it('never shows its secret when described for the logs', () => {
    expect(storage.describe()).not.toContain('minio-secret');
    expect(storage.describe()).toContain('exports');
  });
});
