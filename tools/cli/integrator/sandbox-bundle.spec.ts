import { build } from 'esbuild';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { bundleOptions } from '../../build/bundle-options';

/**
 * The sandbox CLI's bundle (tools:build) is one file an integrator can copy to any machine with
 * Node (docs/sandbox-cli.md). Bundled here from the sources with the build's own options.
 */
describe('the sandbox CLI bundle', () => {
  const bundled = build({ ...bundleOptions(join(__dirname, 'main.ts'), join(__dirname, 'sandbox-bundle.js')), write: false, sourcemap: false, logLevel: 'silent' });

  it("requires nothing at run time but Node's own modules", async () => {
    const { metafile } = await bundled;
    // `<runtime>` is esbuild's own helpers, inside the bundle.
    const required = Object.values(metafile.inputs).flatMap((input) => input.imports.filter((i) => i.external && i.path !== '<runtime>').map((i) => i.path));
    expect(required.length).toBeGreaterThan(0); // node:crypto, node:fs, …: the check sees them
    expect(required.filter((path) => !isBuiltin(path))).toEqual([]);
  });

  it("holds none of the gateway's server side: no NestJS, TypeORM, pg or validation", async () => {
    const { metafile } = await bundled;
    const serverSide = Object.keys(metafile.inputs).filter((file) => /node_modules\/(@nestjs|typeorm|pg|class-validator|class-transformer)\//.test(file));
    expect(serverSide).toEqual([]);
  });
});
