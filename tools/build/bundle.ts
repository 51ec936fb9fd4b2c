/**
 * Bundles a compiled entry point (tsc's output, path aliases rewritten) into one file:
 * `node tools/build/bundle.ts <compiled main.js> <bundle.js> [<main.js> <bundle.js> …]`.
 *
 * The operator and sandbox CLIs run as bundles (`tools:build`). A command's cost is its start-up,
 * which on Node 20 is mostly resolving and compiling modules: a command loads some 2,000 files, and
 * one file takes about a quarter off its CPU (docs/benchmarks.md, "One bundle per process").
 *
 * The API and the scheduler are not bundled: they run for days, and a bundle of the API, though it
 * started a fifth faster, served the payment flow with about 8 % more CPU and ~50 MiB more memory
 * (the same section).
 *
 * tsc stays the compiler: esbuild cannot emit the decorator metadata Nest's injection and
 * validation read, so it bundles tsc's JavaScript rather than the TypeScript sources.
 */
import { build } from 'esbuild';
import { relative } from 'node:path';
import { checkExternalsResolveAlike } from './externals-resolve-alike';

/** Modules the bundle leaves to node_modules, required at run time as if it were not bundled. */
const EXTERNAL = [
  // Native addons: a compiled binary cannot be inlined.
  'argon2',
  // These find files beside their own modules (their package.json, worker-thread scripts, the
  // Swagger UI's assets that @fastify/static serves at /api/docs, the project's root), so they
  // must keep their own `__dirname`.
  'ioredis',
  'pino',
  'thread-stream',
  'swagger-ui-dist',
  '@fastify/static',
  'app-root-path',
  'import-fresh',
  // Never loaded: graphile-worker's configuration loader requires TypeScript's compiler (9 MB)
  // only to read `.ts` configuration files, which the gateway does not have; in the bundle V8
  // would parse it at every start.
  'typescript',
  // Not installed: optional integrations that Nest and pg require inside try/catch only when asked
  // for, and a fallback path of class-transformer that its installed version does not have.
  '@nestjs/microservices',
  '@nestjs/websockets',
  '@nestjs/platform-express',
  '@fastify/view',
  'pg-native',
  'class-transformer/storage',
];

async function bundle(entry: string, outfile: string): Promise<void> {
  const result = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    // Nest names providers, TypeORM names entities and Swagger names schemas after their classes:
    // the bundle must not change a class's `name` when it renames one to avoid a clash.
    keepNames: true,
    // Mapped through tsc's own maps to the TypeScript sources, for `node --enable-source-maps`.
    sourcemap: true,
    // Not minified: it starts slower (the CLI: 1.02 s of CPU against 0.90 s), and stack traces
    // stay readable without the map.
    minify: false,
    logLevel: 'warning',
    metafile: true,
  });
  checkExternalsResolveAlike(result.metafile, outfile);
  const { bytes } = result.metafile.outputs[relative(process.cwd(), outfile)];
  console.log(`${relative(process.cwd(), outfile)}: ${(bytes / 1024 / 1024).toFixed(1)} MB`);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.length === 0 || args.length % 2 !== 0) throw new Error('usage: bundle.ts <compiled main.js> <bundle.js> [<main.js> <bundle.js> …]');
  for (let i = 0; i < args.length; i += 2) await bundle(args[i], args[i + 1]);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
