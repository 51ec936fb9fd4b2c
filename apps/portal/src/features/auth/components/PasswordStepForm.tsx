import { Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';

export interface PasswordStepFormProps {
  submitting: boolean;
  onSubmit: (values: { email: string; password: string }) => void;
}

export function PasswordStepForm({ submitting, onSubmit }: PasswordStepFormProps) {
  const form = useForm({
    initialValues: { email: '', password: '' },
    validate: {
      email: (value) => (/^\S+@\S+$/.test(value) ? null : 'Enter your e-mail address'),
      password: (value) => (value ? null : 'Enter your password'),
    },
  });
  return (
    <form onSubmit={form.onSubmit(onSubmit)} noValidate>
      <Stack>
        <TextInput label="E-mail" type="email" autoComplete="username" required {...form.getInputProps('email')} />
        <PasswordInput label="Password" autoComplete="current-password" required {...form.getInputProps('password')} />
        <Button type="submit" loading={submitting}>
          Sign in
        </Button>
      </Stack>
    </form>
  );
}
