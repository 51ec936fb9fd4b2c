import type { Metafile } from 'esbuild';
import { isBuiltin } from 'node:module';
import { dirname, resolve } from 'node:path';

/**
 * The bundle requires an external module from its own directory, so it must find the copy its
 * importer would have found: a dependency that brings its own, nested version of one (a second
 * pino, say) would otherwise run silently on the other version. Fails the build instead.
 */
export function checkExternalsResolveAlike(metafile: Metafile, outfile: string): void {
  const locate = (request: string, from: string): string | undefined => {
    try {
      return require.resolve(request, { paths: [from] });
    } catch {
      return undefined; // not installed: it would fail alike from both places
    }
  };
  for (const [importer, { imports }] of Object.entries(metafile.inputs)) {
    for (const { path: request, external } of imports) {
      if (!external || isBuiltin(request)) continue;
      const forImporter = locate(request, dirname(resolve(importer)));
      const forBundle = locate(request, dirname(resolve(outfile)));
      if (forImporter !== forBundle) {
        throw new Error(`${importer} requires ${request} from ${forImporter}, but the bundle ${outfile} would load ${forBundle}: add it to the bundle or align the versions.`);
      }
    }
  }
}
