import type { BuildOptions } from 'esbuild';

/** Modules the bundle leaves to node_modules, required at run time as if it were not bundled. */
export const EXTERNAL = [
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

/** esbuild's options for one entry point's bundle (tools/build/bundle.ts). */
export function bundleOptions(entry: string, outfile: string): BuildOptions & { metafile: true } {
  return {
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
  };
}
