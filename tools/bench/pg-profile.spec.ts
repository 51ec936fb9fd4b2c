import { parsePerfScript, summarize } from './pg-profile';

// Three samples as `perf script -F comm,ip,sym` prints them (leaf first), one of them with a frame perf could not name.
const SCRIPT = [
  'postgres ',
  '\t          5dc3b4 btinsert',
  '\t          31deba [unknown]',
  '\t          303ed8 ExecInsertIndexTuples',
  '\t          4803ee PortalRun',
  '\t          47dabe PostgresMain',
  '',
  'postgres ',
  '\t          30cdec pg_strtok',
  '\t          30cb8f ExecConstraints',
  '\t          4803ee PortalRun',
  '\t          47dabe PostgresMain',
  '',
  'postgres ',
  '\t          5dc3b4 epoll_wait',
  '\t          47dabe PostgresMain',
  '',
].join('\n');

describe('PostgreSQL profile from perf samples', () => {
  it('reads each sample as its named frames, leaf first', () => {
    expect(parsePerfScript(SCRIPT)).toEqual([
      ['btinsert', 'ExecInsertIndexTuples', 'PortalRun', 'PostgresMain'],
      ['pg_strtok', 'ExecConstraints', 'PortalRun', 'PostgresMain'],
      ['epoll_wait', 'PostgresMain'],
    ]);
  });

  it('counts a sample in every activity whose function is on its stack', () => {
    const profile = summarize(parsePerfScript(SCRIPT), 1, 10);
    const share = (label: string) => profile.activities.find((activity) => activity.label.startsWith(label))?.share;
    expect(profile.samples).toBe(3);
    expect(share('index entries written')).toBeCloseTo(1 / 3);
    expect(share('… B-tree')).toBeCloseTo(1 / 3);
    expect(share('CHECK constraints')).toBeCloseTo(1 / 3);
    expect(share('COPY')).toBe(0);
  });

  it('ranks functions by the stacks they are on, leaving out those on nearly every stack', () => {
    const { top } = summarize(parsePerfScript(SCRIPT), 1, 2);
    expect(top).toEqual([
      { name: 'PortalRun', share: 2 / 3 },
      { name: 'ExecConstraints', share: 1 / 3 },
    ]);
  });
});
