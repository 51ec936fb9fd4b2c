import { Alert, Button, PasswordInput, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { Navigate, useSearchParams } from 'react-router';
import { useSignIn } from '../../auth';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { fieldErrorsOf } from '../../../shared/ui/errors';
import { acceptInvitation, PASSWORD_MIN_LENGTH } from '../api';
import { AccessCard } from '../components/AccessCard';
import { newPasswordError, repeatError } from '../components/password-rules';

/**
 * `#/invitations/accept?token=…`, the invitation e-mail's link: choose a name and password, then
 * sign in with them (the e-mail address is asked because the link carries only the token).
 */
export function AcceptInvitationPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const signIn = useSignIn();
  const accept = useMutation({ mutationFn: acceptInvitation });
  const form = useForm({
    initialValues: { email: '', name: '', password: '', repeat: '' },
    validate: {
      email: (value) => (/^\S+@\S+$/.test(value) ? null : 'Enter the address the invitation was sent to'),
      name: (value) => (value.trim() ? null : 'Enter your name'),
      password: newPasswordError,
      repeat: repeatError,
    },
  });

  if (signIn.stage === 'done') return <Navigate to="/dashboard" replace />;
  if (signIn.stage === 'totp') return <Navigate to="/sign-in" replace />;

  const submit = form.onSubmit(({ email, name, password }) => {
    accept.mutate(
      { token, name: name.trim(), password },
      {
        onSuccess: () => signIn.password.mutate({ email: email.trim(), password }),
        onError: (error) => form.setErrors(fieldErrorsOf(error)),
      },
    );
  });

  if (!token) {
    return (
      <AccessCard title="Accept the invitation">
        <Alert color="red" title="This link is incomplete" role="alert">
          Open the link from the invitation e-mail again, or ask for a new invitation.
        </Alert>
      </AccessCard>
    );
  }

  return (
    <AccessCard title="Accept the invitation">
      {accept.isError && <ErrorAlert title="The invitation could not be accepted" error={accept.error} />}
      {accept.isSuccess && signIn.password.isError && (
        <Alert color="yellow" title="Invitation accepted" role="alert">
          Your user is ready, but signing in with that e-mail address failed ({signIn.password.error.message}). Sign in with the address the invitation was sent to.
        </Alert>
      )}
      <form onSubmit={submit} noValidate>
        <TextInput label="E-mail" description="The address the invitation was sent to." type="email" autoComplete="username" required mb="sm" {...form.getInputProps('email')} />
        <TextInput label="Your name" autoComplete="name" required mb="sm" {...form.getInputProps('name')} />
        <PasswordInput label="Password" description={`At least ${PASSWORD_MIN_LENGTH} characters.`} autoComplete="new-password" required mb="sm" {...form.getInputProps('password')} />
        <PasswordInput label="Repeat the password" autoComplete="new-password" required mb="md" {...form.getInputProps('repeat')} />
        <Button type="submit" fullWidth loading={accept.isPending || signIn.password.isPending} disabled={accept.isSuccess && !signIn.password.isError}>
          Accept and sign in
        </Button>
      </form>
    </AccessCard>
  );
}
