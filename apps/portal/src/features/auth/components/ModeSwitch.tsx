import { Alert, Anchor, Button, Group, Modal, SegmentedControl, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { isApiError } from '../../../shared/api-client';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { TotpCodeField } from '../../../shared/ui/TotpCodeField';
import { useMe } from '../hooks/useMe';
import { useSetMode } from '../hooks/useSetMode';

export interface ModeSwitchProps {
  size?: 'xs' | 'sm';
}

/**
 * The session's mode as a Test / Live switch. Back to test is immediate; live asks for the TOTP
 * code first (the API's step-up), and explains the API's refusals: TOTP not set up yet, or the
 * account's identity not verified (`live_mode_not_enabled`).
 */
export function ModeSwitch({ size = 'xs' }: ModeSwitchProps) {
  const me = useMe();
  const setMode = useSetMode();
  const [askingLive, setAskingLive] = useState(false);
  const [code, setCode] = useState('');
  if (!me.data?.account) return null;
  const mode = me.data.session.mode;

  const choose = (value: string) => {
    setMode.reset();
    if (value === mode) return;
    if (value === 'live') {
      setCode('');
      setAskingLive(true);
    } else {
      setMode.mutate({ mode: 'test' });
    }
  };

  const close = () => {
    setAskingLive(false);
    setMode.reset();
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setMode.mutate({ mode: 'live', totp: code.trim() || undefined }, { onSuccess: close });
  };

  const error = setMode.error;
  const codeError = isApiError(error) && (error.code === 'totp_invalid' || error.code === 'too_many_attempts') ? error.message : undefined;
  const notEnabled = isApiError(error) && error.code === 'live_mode_not_enabled';
  const needsSetup = !me.data.totp_enabled;

  return (
    <>
      <SegmentedControl
        size={size}
        aria-label="Mode"
        value={mode}
        onChange={choose}
        disabled={setMode.isPending}
        data={[
          { value: 'test', label: <ModeLabel name="Test" /> },
          { value: 'live', label: <ModeLabel name="Live" /> },
        ]}
        // Mantine's default indicator (no colour): coloured ones put white text on a shade too light to read (WCAG AA contrast).
        style={{ flexShrink: 0 }}
      />
      {!askingLive && error && (
        <VisuallyHidden role="alert">
          {error instanceof Error ? error.message : String(error)}
        </VisuallyHidden>
      )}
      <Modal opened={askingLive} onClose={close} title="Switch to live mode" closeButtonProps={{ 'aria-label': 'Close' }}>
        <form onSubmit={submit} noValidate>
          <Stack>
            <Text size="sm">In live mode the portal shows and acts on real payments, keys and money.</Text>
            {needsSetup ? (
              <Alert color="yellow" title="Two-step verification needed">
                Live mode asks for a code from your authenticator app. <Anchor component={Link} to="/settings" onClick={close}>Set up two-step verification in Settings</Anchor> first.
              </Alert>
            ) : (
              <TotpCodeField description="Enter the 6-digit code from your authenticator app." value={code} onChange={(event) => setCode(event.currentTarget.value)} error={codeError} />
            )}
            {notEnabled && (
              <Alert color="yellow" title="Live mode is not enabled for this account yet">
                {error.message} The platform's staff enable it once they have verified the account's identity; until then, keep building in test mode.
              </Alert>
            )}
            {error && !notEnabled && !codeError && <ErrorAlert title="The mode was not changed" error={error} />}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              {!needsSetup && (
                <Button type="submit" color="green" loading={setMode.isPending} disabled={code.trim().length === 0}>
                  Switch to live
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}

/** "Test" on screen, "Test mode" to assistive technology (and to anyone reading the page's text). */
function ModeLabel({ name }: { name: string }) {
  return (
    <span>
      {name}
      <VisuallyHidden> mode</VisuallyHidden>
    </span>
  );
}
