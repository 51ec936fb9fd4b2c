import { PASSWORD_MIN_LENGTH } from '../api';

export function newPasswordError(value: string): string | null {
  return value.length >= PASSWORD_MIN_LENGTH ? null : `At least ${PASSWORD_MIN_LENGTH} characters`;
}

export function repeatError(value: string, values: { password: string }): string | null {
  return value === values.password ? null : 'The two passwords differ';
}
