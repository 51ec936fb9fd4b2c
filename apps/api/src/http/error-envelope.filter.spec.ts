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
