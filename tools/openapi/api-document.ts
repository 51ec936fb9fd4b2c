import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { createApiApp } from '@gateway/api';
import { loadConfig } from '@gateway/platform';

// Any syntactically valid URL: preview mode never connects to it.
const UNUSED_DATABASE_URL = 'postgres://unused@127.0.0.1:9/unused';

/**
 * The document the API serves at /api/docs.json, built by the API's own bootstrap (`createApiApp`,
 * so global prefix, exclusions and document post-processing are not copied here), but in Nest's
 * preview mode: modules are scanned and routes explored, yet no provider is instantiated, so
 * nothing connects to PostgreSQL or Redis and CI needs no database for the generated-file checks.
 */
export async function buildApiDocument(): Promise<OpenAPIObject> {
  let document: OpenAPIObject | undefined;
  // createApiApp offers no hook for either, so both are intercepted for this one call.
  const create = NestFactory.create.bind(NestFactory);
  const previewCreate: typeof NestFactory.create = (module: unknown, ...rest: unknown[]) => {
    const [adapter, options] = rest as [unknown, Record<string, unknown> | undefined];
    return create(module as never, adapter as never, { ...options, preview: true });
  };
  NestFactory.create = previewCreate;
  const setup = SwaggerModule.setup.bind(SwaggerModule);
  SwaggerModule.setup = (path, app, built, options) => {
    // The API hands over a factory (it builds the document on the first request for it).
    document = typeof built === 'function' ? built() : built;
    return setup(path, app, built, options);
  };
  try {
    const config = loadConfig({ NODE_ENV: 'test', DATABASE_URL: UNUSED_DATABASE_URL });
    await createApiApp({ config, databaseUrl: UNUSED_DATABASE_URL, logger: false });
  } finally {
    NestFactory.create = create;
    SwaggerModule.setup = setup;
  }
  if (!document) throw new Error('createApiApp did not set up the OpenAPI document.');
  return document;
}

/**
 * Writes `text` to `output`, or with `--check` on the command line compares instead: 0 when the
 * checked-in file is exactly `text`, 1 (with a line saying which command to run) when it differs.
 */
export function writeOrCheck(output: string, text: string, regenerateCommand: string): number {
  if (!process.argv.includes('--check')) {
    writeFileSync(output, text);
    process.stdout.write(`wrote ${output}\n`);
    return 0;
  }
  if (existsSync(output) && readFileSync(output, 'utf8') === text) return 0;
  process.stderr.write(`${output} is out of date with the API's OpenAPI document: run \`${regenerateCommand}\` and commit the result.\n`);
  return 1;
}

/** Runs a generator script; the preview app is never closed (closing is unsupported in preview mode), so it exits explicitly. */
export function runGenerator(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
