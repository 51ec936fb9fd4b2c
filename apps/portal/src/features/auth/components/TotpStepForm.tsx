import { Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';

export interface TotpStepFormProps {
  submitting: boolean;
  onSubmit: (code: string) => void;
}

/** The second sign-in step: the pending session accepts only this, within 5 minutes. */
export function TotpStepForm({ submitting, onSubmit }: TotpStepFormProps) {
  const form = useForm({
    initialValues: { code: '' },
    validate: { code: (value) => (/^\d{6}$/.test(value) ? null : 'Enter the 6-digit code') },
  });
  return (
    <form onSubmit={form.onSubmit(({ code }) => onSubmit(code))} noValidate>
      <Stack>
        <Text size="sm">Enter the 6-digit code from your authenticator app.</Text>
        <TextInput
          label="Authentication code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          required
          data-autofocus
          {...form.getInputProps('code')}
        />
        <Button type="submit" loading={submitting}>
          Verify
        </Button>
      </Stack>
    </form>
  );
}
