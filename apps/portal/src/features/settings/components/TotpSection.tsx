import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { TotpCodeField } from '../../../shared/ui/TotpCodeField';
import { isApiError } from '../../../shared/api-client';
import { useConfirmTotp, useEnrollTotp } from '../hooks/useTotpEnrolment';
import { QrCode } from './QrCode';

/** TOTP enrolment: a secret (as a QR code and as text), then a first code turns it on. */
export function TotpSection({ enabled }: { enabled: boolean }) {
  const enroll = useEnrollTotp();
  const confirm = useConfirmTotp();
  const [code, setCode] = useState('');

  if (enabled) {
    return (
      <Group gap="sm">
        <Text fw={700}>
          On
        </Text>
        <Text size="sm">Sign-in, live mode and live keys ask for a code from your authenticator app.</Text>
      </Group>
    );
  }

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (code.trim()) confirm.mutate(code.trim());
  };
  const codeError = isApiError(confirm.error) && (confirm.error.code === 'totp_invalid' || confirm.error.code === 'too_many_attempts') ? confirm.error.message : undefined;

  return (
    <Stack gap="sm">
      <Group gap="sm">
        <Text fw={700}>Off</Text>
        <Text size="sm">Two-step verification protects sign-in, and is needed for live mode.</Text>
      </Group>
      {!enroll.data && (
        <Group>
          <Button onClick={() => enroll.mutate()} loading={enroll.isPending}>
            Set up two-step verification
          </Button>
        </Group>
      )}
      {enroll.isError && <ErrorAlert title="Two-step verification could not be set up" error={enroll.error} />}
      {enroll.data && (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Text size="sm">1. Scan this QR code with your authenticator app, or type the key below into it.</Text>
            <QrCode value={enroll.data.otpauth_url} label="QR code to add this account to your authenticator app" />
            <div>
              <Text size="sm" fw={500} id="totp-secret-label">
                Key (if you cannot scan)
              </Text>
              <Code block aria-labelledby="totp-secret-label" data-testid="totp-secret" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
                {enroll.data.secret}
              </Code>
            </div>
            <Text size="sm">2. Enter the 6-digit code the app shows.</Text>
            <TotpCodeField description="The code from your authenticator app." value={code} onChange={(event) => setCode(event.currentTarget.value)} error={codeError} style={{ maxWidth: '16rem' }} />
            {confirm.isError && !codeError && <ErrorAlert title="Two-step verification was not turned on" error={confirm.error} />}
            <Group>
              <Button type="submit" loading={confirm.isPending} disabled={!code.trim()}>
                Turn on
              </Button>
              <Button variant="default" onClick={() => enroll.mutate()} loading={enroll.isPending}>
                New key
              </Button>
            </Group>
          </Stack>
        </form>
      )}
      {confirm.isSuccess && (
        <Alert color="green" role="status">
          Two-step verification is on.
        </Alert>
      )}
    </Stack>
  );
}
