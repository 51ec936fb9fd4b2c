import { describeOffset } from './components/TestClockPanel';
import { canUseSandbox } from './permissions';

describe('the test clock offset as people read it', () => {
  it('says "On real time" without an offset', () => {
    expect(describeOffset(0)).toBe('On real time');
  });

  it('names days, hours and minutes ahead', () => {
    expect(describeOffset(2 * 86400)).toBe('2 days ahead of real time');
    expect(describeOffset(86400 + 3600 + 120)).toBe('1 day 1 hour 2 min ahead of real time');
    expect(describeOffset(45)).toBe('45 s ahead of real time');
  });
});

describe('who may use the sandbox', () => {
  it('lets developers, admins and owners act, never viewers', () => {
    expect(['owner', 'admin', 'developer', 'viewer'].map((role) => canUseSandbox(role as never))).toEqual([true, true, true, false]);
    expect(canUseSandbox(undefined)).toBe(false);
  });
});
