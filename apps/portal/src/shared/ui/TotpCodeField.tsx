import { TextInput, type TextInputProps } from '@mantine/core';

/**
 * The step-up code field a form shows once the API answered `totp_required` (live mode) or
 * `totp_invalid`; the form then sends it as X-TOTP-Code.
 */
export function TotpCodeField(props: Omit<TextInputProps, 'label'>) {
  return (
    <TextInput
      label="Authentication code"
      description="Live mode: enter the 6-digit code from your authenticator app."
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      data-autofocus
      {...props}
    />
  );
}
