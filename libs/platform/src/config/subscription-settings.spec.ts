import { ConfigError, loadConfig } from './app-config';

describe('SUBSCRIPTION_RETRY_DAYS', () => {
  it('retries a declined subscription charge after 1, 3 and 5 days by default', () => {
    expect(loadConfig({}).subscriptions.retryDays).toEqual([1, 3, 5]);
  });

  it('takes any ascending list of whole days, or none at all', () => {
    expect(loadConfig({ SUBSCRIPTION_RETRY_DAYS: ' 2, 4 ,7,14' }).subscriptions.retryDays).toEqual([2, 4, 7, 14]);
    expect(loadConfig({ SUBSCRIPTION_RETRY_DAYS: '' }).subscriptions.retryDays).toEqual([]);
  });

  it.each(['0,1', '1,1', '3,1', '1.5', 'one', '1,,3', '-1'])('refuses %p at boot', (value) => {
    expect(() => loadConfig({ SUBSCRIPTION_RETRY_DAYS: value })).toThrow(ConfigError);
  });
});
