import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const README = readFileSync(join(__dirname, '../README.md'), 'utf8');
const QUICKSTART = readFileSync(join(__dirname, '../examples/quickstart.ts'), 'utf8');

/** The README's quickstart is examples/quickstart.ts, which the e2e suite runs against a real gateway: they must not drift. */
describe('README quickstart', () => {
  const block = /## Quickstart\n[\s\S]*?```ts\n([\s\S]*?)```/.exec(README)?.[1];

  it('is examples/quickstart.ts word for word', () => {
    expect(block).toBe(QUICKSTART);
  });

  it('is at most 10 lines of code and comments', () => {
    expect(QUICKSTART.split('\n').filter((line) => line.trim() !== '').length).toBeLessThanOrEqual(10);
  });
});
