import { createReadStream, createWriteStream } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Upload } from '@aws-sdk/lib-storage';
import type { ExportStorageConfig } from '@gateway/platform';

/** A file being written: stream into `sink`, then `commit` (the file appears whole) or `abort` (nothing remains). */
export interface StoredFileWriter {
  sink: Writable;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

/** Where export files live (docs/exports.md): a local directory or an S3-compatible bucket. Keys are the gateway's own. */
export abstract class ExportStorage {
  /** Starts writing `key`, replacing any earlier file of that key once committed. */
  abstract open(key: string): StoredFileWriter;
  /** The file's bytes; null when there is no such file. */
  abstract read(key: string): Promise<{ body: Readable; size: number } | null>;
  /** Deletes the file; deleting a missing file is not an error. */
  abstract delete(key: string): Promise<void>;
  /** For logs: where files go, without any secret. */
  abstract describe(): string;
}

/**
 * Files under one local directory. A file is written beside its final name (`<name>.<random>.partial`,
 * one per writer, so two attempts never write into one file) and renamed into place on commit: a
 * reader never sees half a file, and a crashed write leaves only a partial, removed with the file.
 */
export class LocalDirectoryStorage extends ExportStorage {
  private readonly root: string;

  constructor(directory: string) {
    super();
    this.root = resolve(directory);
  }

  open(key: string): StoredFileWriter {
    const path = this.pathOf(key);
    const partial = `${path}.${randomBytes(6).toString('hex')}.partial`;
    const ready = mkdir(dirname(path), { recursive: true });
    const sink = new PassThrough();
    let file: Writable | undefined;
    const written = ready.then(
      () =>
        new Promise<void>((done, fail) => {
          file = createWriteStream(partial);
          file.once('error', fail).once('finish', () => done());
          sink.once('error', fail);
          sink.pipe(file);
        }),
    );
    written.catch(() => undefined);
    return {
      sink,
      commit: async () => {
        await written;
        await rename(partial, path);
      },
      abort: async () => {
        sink.destroy();
        await ready.catch(() => undefined);
        // The partial file is removed only once its stream has closed, or an open still in flight would recreate it.
        await new Promise<void>((closed) => {
          if (!file || file.closed) return closed();
          file.once('close', () => closed());
          file.destroy();
        });
        await rm(partial, { force: true });
      },
    };
  }

  async read(key: string): Promise<{ body: Readable; size: number } | null> {
    const path = this.pathOf(key);
    try {
      const { size } = await stat(path);
      return { body: createReadStream(path), size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    await rm(path, { force: true });
    const leftovers = await readdir(dirname(path)).catch(() => [] as string[]);
    const prefix = `${basename(path)}.`;
    for (const name of leftovers) if (name.startsWith(prefix) && name.endsWith('.partial')) await rm(join(dirname(path), name), { force: true });
  }

  describe(): string {
    return `local directory ${this.root}`;
  }

  /** Keys are made by the gateway (`<developer>/<mode>/<reference>.csv`); anything else is refused rather than joined. */
  private pathOf(key: string): string {
    if (!/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*\.csv$/.test(key)) throw new Error(`invalid export file key: ${key}`);
    return join(this.root, key);
  }
}

/**
 * Files in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2…), streamed with a multipart upload:
 * memory holds a few parts whatever the file's size, and an aborted upload leaves no object.
 */
export class S3Storage extends ExportStorage {
  private sdk?: Promise<S3Sdk>;

  constructor(private readonly config: Extract<ExportStorageConfig, { kind: 's3' }>) {
    super();
  }

  open(key: string): StoredFileWriter {
    const sink = new PassThrough();
    let aborted = false;
    const upload = this.connect().then(({ client, Upload }) => {
      // Aborted while the SDK was loading: no upload starts, so no object can appear.
      if (aborted) throw new Error('export file aborted');
      return new Upload({
        client,
        params: { Bucket: this.config.bucket, Key: key, Body: sink, ContentType: 'text/csv; charset=utf-8' },
        queueSize: 2,
        partSize: 8 * 1024 * 1024,
        leavePartsOnError: false,
      });
    });
    // If the SDK cannot load, the writer must fail rather than wait on a sink nothing reads.
    upload.catch((error: Error) => sink.destroy(error));
    const done = upload.then((started) => started.done());
    done.catch(() => undefined);
    return {
      sink,
      commit: async () => {
        await done;
      },
      abort: async () => {
        aborted = true;
        sink.destroy();
        await upload.then((started) => started.abort()).catch(() => undefined);
      },
    };
  }

  async read(key: string): Promise<{ body: Readable; size: number } | null> {
    const { client, commands } = await this.connect();
    try {
      const object = await client.send(new commands.GetObjectCommand({ Bucket: this.config.bucket, Key: key }));
      return { body: object.Body as Readable, size: Number(object.ContentLength ?? 0) };
    } catch (error) {
      const name = (error as { name?: string }).name;
      if (name === 'NoSuchKey' || name === 'NotFound') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const { client, commands } = await this.connect();
    await client.send(new commands.DeleteObjectCommand({ Bucket: this.config.bucket, Key: key }));
  }

  describe(): string {
    return `S3 bucket ${this.config.bucket}${this.config.endpoint ? ` at ${this.config.endpoint}` : ''} (region ${this.config.region})`;
  }

  /**
   * The AWS SDK (some 130 modules, 2 MB of code) is loaded on the first file operation, not at
   * start-up: a gateway that keeps its exports on disk never loads it, and one that uses S3 pays
   * for it once, when the first export runs or is downloaded.
   */
  private connect(): Promise<S3Sdk> {
    this.sdk ??= Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]).then(([commands, { Upload }]) => ({
      commands,
      Upload,
      client: new commands.S3Client({
        region: this.config.region,
        endpoint: this.config.endpoint,
        forcePathStyle: this.config.forcePathStyle,
        credentials:
          this.config.accessKeyId && this.config.secretAccessKey ? { accessKeyId: this.config.accessKeyId, secretAccessKey: this.config.secretAccessKey } : undefined,
        // Checksums only where S3 requires them: self-hosted stores (older MinIO, Ceph) refuse the
        // aws-chunked uploads the SDK otherwise sends by default.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
    }));
    return this.sdk;
  }
}

interface S3Sdk {
  client: S3Client;
  commands: typeof import('@aws-sdk/client-s3');
  Upload: typeof Upload;
}

/** The storage the configuration names. */
export function exportStorageFor(config: ExportStorageConfig): ExportStorage {
  return config.kind === 's3' ? new S3Storage(config) : new LocalDirectoryStorage(config.directory);
}
