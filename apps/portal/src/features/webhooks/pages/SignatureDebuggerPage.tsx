import { Anchor, Stack } from '@mantine/core';
import { Link } from 'react-router';
import { PageHeader } from '../../../shared/layout';
import { SignatureDebugger, SignatureFormat } from '../components/SignatureDebugger';

/** Paste a delivery, its headers and the secret: which check fails, and why. Nothing leaves the page. */
export function SignatureDebuggerPage() {
  return (
    <>
      <PageHeader
        title="Signature debugger"
        description="Paste a delivery your receiver refused, its headers and the endpoint's secret to see which check fails and why. The check runs in your browser; the secret is never sent."
        actions={
          <Anchor component={Link} to="/webhooks">
            Back to webhooks
          </Anchor>
        }
      />
      <Stack>
        <SignatureFormat />
        <SignatureDebugger />
      </Stack>
    </>
  );
}
