/**
 * Bundles a compiled entry point (tsc's output, path aliases rewritten) into one file:
 * `node tools/build/bundle.ts <compiled main.js> <bundle.js> [<main.js> <bundle.js> …]`.
 *
 * The operator and sandbox CLIs run as bundles (`tools:build`). A command's cost is its start-up,
 * which on Node 20 is mostly resolving and compiling modules: an operator command loads some 2,000
 * files, and one file takes about a quarter off its CPU (docs/benchmarks.md, "One bundle per
 * process"). The sandbox CLI's bundle needs only Node, so integrators can copy it anywhere.
 *
 * The API and the scheduler are not bundled: they run for days, and a bundle of the API, though it
 * started a fifth faster, served the payment flow with 8–18 % more CPU and ~50 MiB more memory
 * (the same section).
 *
 * tsc stays the compiler: esbuild cannot emit the decorator metadata Nest's injection and
 * validation read, so it bundles tsc's JavaScript rather than the TypeScript sources.
 */
import { build } from 'esbuild';
import { relative } from 'node:path';
import { bundleOptions } from './bundle-options';
import { checkExternalsResolveAlike } from './externals-resolve-alike';

async function bundle(entry: string, outfile: string): Promise<void> {
  const result = await build(bundleOptions(entry, outfile));
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
