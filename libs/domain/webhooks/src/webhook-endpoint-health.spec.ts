import { type AttemptHealth, runOf } from './webhook-endpoint-health.repository';

const at = (second: number) => new Date(Date.UTC(2026, 2, 14, 9, 0, second));
const attempt = (second: number, success: boolean, endedDeliveryFailed = false): AttemptHealth => ({
  endpointId: 'e1',
  deliveryId: `d${second}`,
  success,
  error: success ? null : 'http_status',
  statusCode: success ? 200 : 500,
  at: at(second),
  endedDeliveryFailed,
});

describe('runOf (what a batch of attempts to one endpoint leaves of its run)', () => {
  it('failures alone add their ended deliveries to the run, which starts at the first', () => {
    const run = runOf([attempt(1, false, true), attempt(2, false), attempt(3, false, true)]);
    expect(run).toMatchObject({ lastSuccessAt: null, failedDeliveries: 2, firstFailureAt: at(1) });
    expect(run.lastFailure?.at).toEqual(at(3));
  });

  it('a success ends the run: only the failures after the last success count, from the first of them', () => {
    const run = runOf([attempt(1, false, true), attempt(2, true), attempt(3, false, true), attempt(4, false)]);
    expect(run).toMatchObject({ lastSuccessAt: at(2), failedDeliveries: 1, firstFailureAt: at(3) });
    expect(run.lastFailure?.at).toEqual(at(4));
  });

  it('successes alone leave no run and no failure', () => {
    expect(runOf([attempt(2, true), attempt(1, true)])).toEqual({ lastSuccessAt: at(2), failedDeliveries: 0, firstFailureAt: null, lastFailure: null });
  });
});
