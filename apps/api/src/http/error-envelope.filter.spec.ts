import { Logger } from '@nestjs/common';
import { Amount } from '@gateway/platform';
import { renderError } from './error-envelope.filter';

describe('error envelope', () => {
  it('answers an amount error that escaped a controller as 400 validation_error, not 500', () => {
    let escaped: unknown;
    try {
      Amount.parse(1e-7);
    } catch (error) {
      escaped = error;
    }
    const logger = new Logger('test');
    const error = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    expect(renderError(escaped, 'req_1', logger)).toEqual({
      status: 400,
      body: { success: false, code: 'validation_error', message: 'The amount is not valid.', errors: { amount: [expect.stringContaining('decimal')] } },
    });
    expect(error).not.toHaveBeenCalled();
  });
});

describe('error envelope: the database unavailable', () => {
  const logger = new Logger('test');
  beforeEach(() => {
    jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    jest.spyOn(logger, 'error').mockImplementation(() => undefined);
  });

  it.each([
    ['a lost connection', new Error('Connection terminated unexpectedly')],
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a server shutting down (57P01)', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['a deadlock that outlived its retries (40P01)', Object.assign(new Error('deadlock detected'), { code: '40P01' })],
    ['a transaction whose connection was lost mid-way (TypeORM)', Object.assign(new Error('Database connection provided by a query runner was already released'), { name: 'QueryRunnerProviderAlreadyReleasedError' })],
    ['a wrapped driver error', Object.assign(new Error('query failed'), { driverError: Object.assign(new Error('x'), { code: '57P03' }) })],
    ['a statement past DATABASE_STATEMENT_TIMEOUT_MS (57014)', Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' })],
  ])('answers %s with 503 service_unavailable, never a 500', (_what, error) => {
    const rendered = renderError(error, 'req_1', logger);
    expect(rendered.status).toBe(503);
    expect(rendered.body).toMatchObject({ success: false, code: 'service_unavailable' });
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('still answers a SQL bug (42601) with 500 internal_error', () => {
    expect(renderError(Object.assign(new Error('syntax error'), { code: '42601' }), 'req_1', logger).status).toBe(500);
  });
});
