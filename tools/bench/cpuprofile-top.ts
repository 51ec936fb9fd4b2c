import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

/**
 * The top frames of a V8 CPU profile (`node --cpu-prof`, e.g. `BENCH_CPU_PROF=<dir> npm run bench:flow`),
 * as percentages of the samples in which the process was running (idle samples left out):
 * - self time: the function itself;
 * - inclusive time: it and what it called (a recursive function counted once per sample);
 * - by owner: the frame nearest the leaf that is our code (a file under apps/ or libs/) or a
 *   framework (Fastify, Nest, rxjs) — "where would a change have to be made" — else the leaf itself
 *   (syscalls such as writev, the garbage collector).
 *
 *   node -r @swc-node/register tools/bench/cpuprofile-top.ts <file.cpuprofile> [--top N] [--skip-seconds S]
 *
 * `--skip-seconds`: leave out the first S seconds (the process's start-up: module loading).
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const FRAMEWORKS = ['node_modules/fastify/', 'node_modules/@nestjs/core/', 'node_modules/rxjs/'];

function main(): void {
  const file = process.argv[2];
  if (!file) throw new Error('usage: cpuprofile-top.ts <file.cpuprofile> [--top N] [--skip-seconds S]');
  const top = Number(option('--top') ?? 25);
  const skipMicros = Number(option('--skip-seconds') ?? 0) * 1e6;
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const owners = new Map<string, number>();
  let running = 0;
  let elapsed = 0;
  profile.samples.forEach((sample, index) => {
    elapsed += profile.timeDeltas[index] ?? 0;
    const leaf = byId.get(sample) as ProfileNode;
    if (elapsed < skipMicros || leaf.callFrame.functionName === '(idle)') return;
    running += 1;
    add(self, frameName(leaf));
    const seen = new Set<string>();
    let owner: string | undefined;
    for (let id: number | undefined = sample; id !== undefined; id = parentOf.get(id)) {
      const node = byId.get(id) as ProfileNode;
      owner ??= ownerOf(node.callFrame.url);
      const name = frameName(node);
      if (seen.has(name)) continue;
      seen.add(name);
      add(inclusive, name);
    }
    add(owners, owner ?? `${leaf.callFrame.functionName || '(anonymous)'} (no frame of ours)`);
  });
  const print = (title: string, counts: Map<string, number>) => {
    console.log(`\n${title} (${running} running samples)\n\n| % | frame |\n|---|---|`);
    for (const [name, count] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(`| ${((100 * count) / running).toFixed(1)} | ${name} |`);
    }
  };
  print('Self time', self);
  print('Inclusive time', inclusive);
  print('By owner', owners);
}

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

function add(counts: Map<string, number>, name: string): void {
  counts.set(name, (counts.get(name) ?? 0) + 1);
}

/** Our file (the built API's dist/ path folded onto its source) or a framework package; undefined otherwise. */
function ownerOf(url: string): string | undefined {
  const framework = FRAMEWORKS.find((prefix) => url.includes(prefix));
  if (framework) return framework.slice('node_modules/'.length, -1);
  if (url.includes('node_modules') || !url.startsWith('file://')) return undefined;
  const path = relative(process.cwd(), url.slice('file://'.length)).replace(/^dist\/apps\/[^/]+\//, '');
  return /^(apps|libs)\//.test(path) ? path.replace(/\.js$/, '') : undefined;
}

function frameName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url ? `${relative(process.cwd(), url.replace(/^file:\/\//, ''))}:${lineNumber + 1}` : '';
  return `${functionName || '(anonymous)'}${where ? ` ${where}` : ''}`;
}

main();
