import { Alert, Anchor, Button, PasswordInput, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { fieldErrorsOf } from '../../../shared/ui/errors';
import { confirmPasswordReset, PASSWORD_MIN_LENGTH, requestPasswordReset } from '../api';
import { AccessCard } from '../components/AccessCard';
import { newPasswordError, repeatError } from '../components/password-rules';

/**
 * `#/password-reset`: ask for a reset link by e-mail (always the same answer, so it tells nobody
 * whether an address has an account); `#/password-reset?token=…`, the e-mail's link: a new password.
 */
export function PasswordResetPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  return token ? <NewPasswordForm token={token} /> : <RequestLinkForm />;
}

function RequestLinkForm() {
  const request = useMutation({ mutationFn: requestPasswordReset });
  const form = useForm({
    initialValues: { email: '' },
    validate: { email: (value) => (/^\S+@\S+$/.test(value) ? null : 'Enter your e-mail address') },
  });
  const submit = form.onSubmit(({ email }) => request.mutate(email.trim(), { onError: (error) => form.setErrors(fieldErrorsOf(error)) }));

  return (
    <AccessCard title="Reset your password">
      {request.isSuccess ? (
        <Alert color="green" title="Check your e-mail" role="status">
          If an account uses {form.values.email.trim()}, we have sent it a link to choose a new password. The link works once, for 1 hour.
        </Alert>
      ) : (
        <>
          {request.isError && <ErrorAlert title="The request could not be sent" error={request.error} />}
          <Text size="sm">Enter your e-mail address: we send a link to choose a new password.</Text>
          <form onSubmit={submit} noValidate>
            <TextInput label="E-mail" type="email" autoComplete="username" required mb="md" {...form.getInputProps('email')} />
            <Button type="submit" fullWidth loading={request.isPending}>
              Send the link
            </Button>
          </form>
        </>
      )}
    </AccessCard>
  );
}

function NewPasswordForm({ token }: { token: string }) {
  const confirm = useMutation({ mutationFn: confirmPasswordReset });
  const form = useForm({
    initialValues: { password: '', repeat: '' },
    validate: { password: newPasswordError, repeat: repeatError },
  });
  const submit = form.onSubmit(({ password }) => confirm.mutate({ token, password }, { onError: (error) => form.setErrors(fieldErrorsOf(error)) }));

  return (
    <AccessCard title="Choose a new password">
      {confirm.isSuccess ? (
        <Alert color="green" title="Your password has been changed" role="status">
          You have been signed out everywhere.{' '}
          <Anchor component={Link} to="/sign-in">
            Sign in with the new password
          </Anchor>
          .
        </Alert>
      ) : (
        <>
          {confirm.isError && (
            <>
              <ErrorAlert title="The password could not be changed" error={confirm.error} />
              <Anchor component={Link} to="/password-reset" size="sm">
                Ask for a new link
              </Anchor>
            </>
          )}
          <form onSubmit={submit} noValidate>
            <PasswordInput label="New password" description={`At least ${PASSWORD_MIN_LENGTH} characters.`} autoComplete="new-password" required mb="sm" {...form.getInputProps('password')} />
            <PasswordInput label="Repeat the new password" autoComplete="new-password" required mb="md" {...form.getInputProps('repeat')} />
            <Button type="submit" fullWidth loading={confirm.isPending}>
              Set the new password
            </Button>
          </form>
        </>
      )}
    </AccessCard>
  );
}
