import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { checkExternalsResolveAlike } from './externals-resolve-alike';

/** A package tree on disk: `entry.js` requires `lib`, which requires the external `dep`. */
function packageTree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'bundle-externals-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

async function bundleAndCheck(root: string, entryText = "require('lib');"): Promise<void> {
  writeFileSync(join(root, 'entry.js'), entryText);
  const outfile = join(root, 'dist/out.js');
  const { metafile } = await build({ entryPoints: [join(root, 'entry.js')], outfile, bundle: true, platform: 'node', external: ['dep'], write: false, metafile: true, logLevel: 'silent' });
  checkExternalsResolveAlike(metafile, outfile);
}

const dep = (version: string) => ({
  'package.json': JSON.stringify({ name: 'dep', version, main: 'index.js' }),
  'index.js': `module.exports = '${version}';`,
});
const under = (dir: string, files: Record<string, string>) => Object.fromEntries(Object.entries(files).map(([path, text]) => [`${dir}/${path}`, text]));
const lib = { 'node_modules/lib/package.json': JSON.stringify({ name: 'lib', main: 'index.js' }), 'node_modules/lib/index.js': "module.exports = require('dep');" };

describe('checkExternalsResolveAlike', () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));
  const tree = (files: Record<string, string>) => {
    const root = packageTree(files);
    roots.push(root);
    return root;
  };

  it('passes when the bundle would load the copy its importer loads', async () => {
    await expect(bundleAndCheck(tree({ ...lib, ...under('node_modules/dep', dep('2.0.0')) }))).resolves.toBeUndefined();
  });

  it('fails the build when the importer has its own nested version, naming both copies', async () => {
    const root = tree({ ...lib, ...under('node_modules/dep', dep('2.0.0')), ...under('node_modules/lib/node_modules/dep', dep('1.0.0')) });
    const check = bundleAndCheck(root);
    await expect(check).rejects.toThrow(/node_modules\/lib\/index\.js requires dep from .*node_modules\/lib\/node_modules\/dep\/index\.js, but the bundle .*would load .*bundle-externals-[^/]+\/node_modules\/dep\/index\.js/);
  });

  it('passes when the package is installed nowhere: it fails alike bundled or not', async () => {
    await expect(bundleAndCheck(tree(lib))).resolves.toBeUndefined();
  });

  it("ignores Node's own modules", async () => {
    await expect(bundleAndCheck(tree({ ...lib, ...under('node_modules/dep', dep('2.0.0')) }), "require('lib'); require('node:fs'); require('path');")).resolves.toBeUndefined();
  });
});
