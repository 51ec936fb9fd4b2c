/**
 * The portal's initial download: builds it with Vite into a temporary folder and sums, gzipped,
 * the JavaScript and CSS the first page load fetches (the entry script and the modules it
 * preloads, as index.html names them), then lists the lazily loaded route chunks. The budget is
 * 300 kB of gzipped initial JavaScript (issue 16). Run: `npm run bench:portal-bundle`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type * as Vite from 'vite';

const BUDGET_KB = 300;

async function main(): Promise<void> {
  const vite = process.getBuiltinModule('node:module').createRequire(__filename)('vite') as typeof Vite;
  const outDir = mkdtempSync(join(tmpdir(), 'gateway-portal-bundle-'));
  try {
    await vite.build({ configFile: resolve(__dirname, '../../apps/portal/vite.config.ts'), logLevel: 'silent', build: { outDir } });
    const html = readFileSync(join(outDir, 'index.html'), 'utf8');
    const initial = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
    const gz = (file: string) => gzipSync(readFileSync(join(outDir, file))).length / 1024;
    const initialJs = initial.filter((f) => f.endsWith('.js')).reduce((sum, f) => sum + gz(f), 0);
    const initialCss = initial.filter((f) => f.endsWith('.css')).reduce((sum, f) => sum + gz(f), 0);
    const lazy = readdirSync(join(outDir, 'assets'))
      .map((f) => `assets/${f}`)
      .filter((f) => f.endsWith('.js') && !initial.includes(f))
      .map((f) => ({ file: f, kb: gz(f) }))
      .sort((a, b) => b.kb - a.kb);
    console.log(`initial JavaScript: ${initialJs.toFixed(1)} kB gzipped in ${initial.filter((f) => f.endsWith('.js')).length} files (budget ${BUDGET_KB} kB)`);
    console.log(`initial CSS:        ${initialCss.toFixed(1)} kB gzipped`);
    console.log(`lazily loaded:      ${lazy.length} chunks, ${lazy.reduce((s, c) => s + c.kb, 0).toFixed(1)} kB gzipped in all; largest:`);
    for (const chunk of lazy.slice(0, 8)) console.log(`  ${chunk.kb.toFixed(1).padStart(7)} kB  ${chunk.file}`);
    if (initialJs > BUDGET_KB) process.exitCode = 1;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

void main();
