import { armedFailpoints, fires, parseFailpoints } from './failpoints';

describe('failpoints', () => {
  it('parses names, tags and the kill action', () => {
    expect(parseFailpoints(' idempotency.after-claim, transaction.before-commit@payments.record-success=kill ,,webhooks.after-send=kill')).toEqual([
      { name: 'idempotency.after-claim', action: 'kill' },
      { name: 'transaction.before-commit', tag: 'payments.record-success', action: 'kill' },
      { name: 'webhooks.after-send', action: 'kill' },
    ]);
  });

  it.each(['provider.after-call=pause', 'Provider', '@tag', 'a b', 'name@=kill'])('refuses %p', (entry) => {
    expect(() => parseFailpoints(entry)).toThrow(entry);
  });

  it('arms nothing when the variable is unset', () => {
    const warn = jest.fn();
    expect(armedFailpoints({ NODE_ENV: 'test' }, warn)).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
  });

  it('refuses to arm with NODE_ENV=production, and says why', () => {
    const warn = jest.fn();
    expect(armedFailpoints({ NODE_ENV: 'production', GATEWAY_FAILPOINTS: 'provider.after-call' }, warn)).toEqual([]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('never with NODE_ENV=production'));
  });

  it('arms what a test names, and says so', () => {
    const warn = jest.fn();
    expect(armedFailpoints({ NODE_ENV: 'test', GATEWAY_FAILPOINTS: 'provider.after-call' }, warn)).toEqual([{ name: 'provider.after-call', action: 'kill' }]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('armed: provider.after-call'));
  });

  it('fires an untagged failpoint wherever its name is reached, a tagged one only with its tag', () => {
    const armed = parseFailpoints('idempotency.after-claim,transaction.after-commit@payments.record-success');
    expect(fires(armed, 'idempotency.after-claim')).toBe(true);
    expect(fires(armed, 'idempotency.after-claim', 'any')).toBe(true);
    expect(fires(armed, 'transaction.after-commit', 'payments.record-success')).toBe(true);
    expect(fires(armed, 'transaction.after-commit', 'payments.create')).toBe(false);
    expect(fires(armed, 'transaction.after-commit')).toBe(false);
    expect(fires(armed, 'provider.after-call')).toBe(false);
  });
});
