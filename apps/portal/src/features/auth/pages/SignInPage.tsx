import { Alert, Anchor, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { Link, Navigate, useLocation, useSearchParams } from 'react-router';
import { PRODUCT_NAME } from '../../../shared/links';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { PasswordStepForm } from '../components/PasswordStepForm';
import { TotpStepForm } from '../components/TotpStepForm';
import { useSignIn } from '../hooks/useSignIn';

/** Only paths inside the portal: `next` comes from the URL, so it must not lead elsewhere. */
function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/dashboard';
}

export function SignInPage() {
  const { stage, password, totp, restart } = useSignIn();
  const [params] = useSearchParams();
  const location = useLocation();
  const expired = (location.state as { expired?: boolean } | null)?.expired === true;

  useEffect(() => {
    document.title = `Sign in · ${PRODUCT_NAME}`;
  }, []);

  if (stage === 'done') return <Navigate to={safeNext(params.get('next'))} replace />;

  const error = stage === 'totp' ? totp.error : password.error;
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420}>
        <Stack>
          <div>
            <Text c="dimmed" size="sm">
              {PRODUCT_NAME} developer portal
            </Text>
            <Title order={1} size="h2">
              {stage === 'totp' ? 'Two-step verification' : 'Sign in'}
            </Title>
          </div>
          {expired && stage === 'password' && (
            <Alert color="yellow" title="Your session has ended">
              Sign in again to continue.
            </Alert>
          )}
          {error && <ErrorAlert title={stage === 'totp' ? 'That code did not work' : 'Sign-in failed'} error={error} />}
          {stage === 'password' ? (
            <PasswordStepForm submitting={password.isPending} onSubmit={(values) => password.mutate(values)} />
          ) : (
            <TotpStepForm submitting={totp.isPending} onSubmit={(code) => totp.mutate(code)} />
          )}
          {stage === 'totp' && (
            <Anchor component="button" type="button" size="sm" onClick={restart}>
              Use a different account
            </Anchor>
          )}
          {stage === 'password' && (
            <Anchor component={Link} to="/password-reset" size="sm">
              Forgot your password?
            </Anchor>
          )}
          <Anchor component={Link} to="/status" size="sm">
            API status
          </Anchor>
        </Stack>
      </Paper>
    </Center>
  );
}
