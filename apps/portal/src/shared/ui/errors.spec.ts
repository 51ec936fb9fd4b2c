import { ApiError } from '../api-client';
import { fieldErrorsOf } from './errors';

describe('fieldErrorsOf', () => {
  it('gives each field of a validation_error its messages, joined', () => {
    const error = new ApiError({ code: 'validation_error', status: 400, message: 'The request is invalid.', errors: { cidr: ['must be an IPv4 or IPv6 address or CIDR range'], label: ['too long', 'not a string'] } });
    expect(fieldErrorsOf(error)).toEqual({ cidr: 'must be an IPv4 or IPv6 address or CIDR range', label: 'too long not a string' });
  });

  it('is empty for errors about no field, so the form shows them as a whole', () => {
    expect(fieldErrorsOf(new ApiError({ code: 'conflict', status: 409, message: 'Already listed.' }))).toEqual({});
    expect(fieldErrorsOf(new Error('boom'))).toEqual({});
  });
});
