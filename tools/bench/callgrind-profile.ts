import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** One function's instructions, as callgrind_annotate lists them (self or inclusive cost), its JIT code named. */
export interface ProfileLine {
  instructions: number;
  share: string;
  name: string;
}

/** A code range Node wrote to its perf map (`--perf-basic-prof`): where V8 put a compiled function. */
interface CodeRange {
  start: number;
  end: number;
  name: string;
}

/**
 * The `top` functions of a callgrind dump by their own instructions (`inclusive`: with those of
 * the functions they called, as far as callgrind follows calls through JIT code), with the compiled JavaScript
 * named. callgrind knows Node's C++ and V8's builtins by their symbols, but JIT code only by its
 * address; Node started with `--perf-basic-prof` writes `/tmp/perf-<pid>.map`, which names each
 * range of JIT code, so the two together show which JavaScript the instructions ran.
 */
export async function topFunctions(dump: string, perfMap: string, top: number, inclusive = false): Promise<ProfileLine[]> {
  const { stdout } = await run('callgrind_annotate', ['--threshold=100', `--inclusive=${inclusive ? 'yes' : 'no'}`, dump], { maxBuffer: 256 * 1024 * 1024 });
  const ranges = readPerfMap(perfMap);
  const lines: ProfileLine[] = [];
  for (const line of stdout.split('\n')) {
    const match = /^\s*([\d,]+) \(\s*([\d.]+)%\)\s+(.+)$/.exec(line);
    if (!match || match[3].includes('PROGRAM TOTALS')) continue;
    const jit = /\?\?\?:0x([0-9a-f]+) \[\?\?\?\]/.exec(match[3]);
    const name = jit ? `JIT ${codeAt(ranges, Number.parseInt(jit[1], 16)) ?? `(unnamed code at 0x${jit[1]})`}` : match[3];
    lines.push({ instructions: Number(match[1].replaceAll(',', '')), share: match[2], name });
    if (lines.length === top) break;
  }
  return lines;
}

/** The perf map's ranges by start; where V8 reused an address, the later entry (the newer code) wins. */
function readPerfMap(path: string): CodeRange[] {
  const byStart = new Map<number, CodeRange>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const [start, size, ...name] = line.split(' ');
    if (!size) continue;
    const from = Number.parseInt(start, 16);
    byStart.set(from, { start: from, end: from + Number.parseInt(size, 16), name: name.join(' ') });
  }
  return [...byStart.values()].sort((a, b) => a.start - b.start);
}

function codeAt(ranges: CodeRange[], address: number): string | undefined {
  let low = 0;
  let high = ranges.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (ranges[middle].start <= address) low = middle + 1;
    else high = middle - 1;
  }
  // `high` is the last range starting at or before the address; an earlier, longer one may hold it.
  for (let i = high; i >= 0 && i > high - 50; i--) if (address < ranges[i].end) return ranges[i].name;
  return undefined;
}
