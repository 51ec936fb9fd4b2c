import { DomainError } from '../errors';
import { Amount, InvalidAmountError } from './amount';

/**
 * Amount.parse for a value a client sent. An amount that cannot be read exactly (`1e-7`: more
 * than two decimals; `1e21`: too large to carry cents; NaN; neither a number nor a decimal
 * string) is the client's mistake: 400 `validation_error` naming the field, never a 500.
 * @throws validation_error
 */
export function parseRequestAmount(input: unknown, field = 'amount'): Amount {
  try {
    return Amount.parse(input);
  } catch (error) {
    if (error instanceof InvalidAmountError) throw new DomainError('validation_error', 'The amount is not valid.', { [field]: [error.message] });
    throw error;
  }
}
