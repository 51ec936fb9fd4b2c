import { Alert, Badge, Button, Code, Group, Paper, PasswordInput, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '../../../shared/ui/errors';
import { type Check, type CheckOutcome, debugSignature, type DebugReport, TOLERANCE_SECONDS, type Verdict } from '../signature/verify';

const OUTCOME: Record<CheckOutcome, { color: string; label: string }> = {
  pass: { color: 'green', label: 'Passes' },
  fail: { color: 'red', label: 'Fails' },
  skipped: { color: 'gray', label: 'Not checked' },
};

const VERDICT: Record<Verdict, { color: string; title: string }> = {
  valid: { color: 'green', title: 'Signature valid' },
  canonical_only: { color: 'yellow', title: 'Valid only for a verifier that re-serialises the payload' },
  invalid: { color: 'red', title: 'Signature invalid' },
};

const CHECKS: Array<{ key: 'header' | 'timestamp' | 'rawBody' | 'canonicalBody'; title: string }> = [
  { key: 'header', title: 'Signature header' },
  { key: 'timestamp', title: `Timestamp within ${TOLERANCE_SECONDS} s` },
  { key: 'rawBody', title: 'Digest over the raw body' },
  { key: 'canonicalBody', title: 'Digest over the canonical body (sorted keys, compact)' },
];

/**
 * Checks a delivery the way a receiver does, and says which check fails and why. Everything runs
 * in this page (Web Crypto): the secret is never sent anywhere.
 */
export function SignatureDebugger() {
  const [body, setBody] = useState('');
  const [headers, setHeaders] = useState('');
  const [secret, setSecret] = useState('');
  const [report, setReport] = useState<DebugReport | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);

  const check = async (event: React.FormEvent) => {
    event.preventDefault();
    setChecking(true);
    setFailure(null);
    try {
      setReport(await debugSignature({ body, headers, secret, nowSeconds: Math.floor(Date.now() / 1000) }));
    } catch (error) {
      setReport(null);
      setFailure(errorMessage(error));
    } finally {
      setChecking(false);
    }
  };

  return (
    <Stack>
      <form onSubmit={(event) => void check(event)} noValidate aria-label="Signature debugger">
        <Stack>
          <Textarea
            label="Request body"
            description="Exactly as your server received it (the raw bytes, before any JSON parsing)."
            autosize
            minRows={4}
            maxRows={16}
            value={body}
            onChange={(e) => setBody(e.currentTarget.value)}
            styles={{ input: { fontFamily: 'monospace' } }}
          />
          <Textarea
            label="Request headers"
            description="One per line, e.g. X-Gateway-Signature: t=…,v1=… and X-Gateway-Timestamp: …; others are ignored."
            autosize
            minRows={2}
            maxRows={8}
            value={headers}
            onChange={(e) => setHeaders(e.currentTarget.value)}
            styles={{ input: { fontFamily: 'monospace' } }}
          />
          <PasswordInput label="Signing secret" description="The endpoint's whsec_… secret. It stays in this page." value={secret} onChange={(e) => setSecret(e.currentTarget.value)} autoComplete="off" />
          <Group justify="flex-end">
            <Button type="submit" loading={checking}>
              Check signature
            </Button>
          </Group>
        </Stack>
      </form>
      {failure && (
        <Alert color="red" title="The check could not run" role="alert">
          {failure}
        </Alert>
      )}
      {report && <DebugResult report={report} />}
    </Stack>
  );
}

function DebugResult({ report }: { report: DebugReport }) {
  const verdict = VERDICT[report.verdict];
  return (
    <section aria-label="Result">
      <Alert color={verdict.color} title={verdict.title} role="status" mb="md">
        {report.reasons.length === 0 ? (
          <Text size="sm">The signature matches the raw body and the timestamp is fresh: a receiver accepts this delivery.</Text>
        ) : (
          <Stack gap="xs">
            {report.reasons.map((reason) => (
              <Text size="sm" key={reason}>
                {reason}
              </Text>
            ))}
          </Stack>
        )}
      </Alert>
      <Title order={2} size="h4" mb="xs">
        Checks
      </Title>
      <Stack gap="sm">
        {CHECKS.map(({ key, title }) => (
          <CheckRow key={key} title={title} check={report[key]} />
        ))}
      </Stack>
    </section>
  );
}

function CheckRow({ title, check }: { title: string; check: Check }) {
  const outcome = OUTCOME[check.outcome];
  return (
    <Paper withBorder p="sm" data-check={title}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Text fw={600} size="sm">
          {title}
        </Text>
        <Badge color={outcome.color} variant="light" style={{ flexShrink: 0 }}>
          {outcome.label}
        </Badge>
      </Group>
      <Text size="sm" mt={4} style={{ overflowWrap: 'anywhere' }}>
        {check.detail}
      </Text>
    </Paper>
  );
}

/** The wire format, for the page's lead. */
export function SignatureFormat() {
  return (
    <Text size="sm" c="dimmed">
      Each delivery carries <Code>X-Gateway-Signature: t=&lt;unix seconds&gt;,v1=&lt;hex&gt;</Code>: HMAC-SHA256 of <Code>&lt;t&gt;.&lt;body&gt;</Code> with the endpoint&apos;s secret. A receiver refuses a t more
      than {TOLERANCE_SECONDS} s away, and compares with every v1 (two during a secret rotation).
    </Text>
  );
}
