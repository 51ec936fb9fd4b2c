import { Anchor, Center, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ModeSwitch, useMe } from '../../auth';
import { PageHeader } from '../../../shared/layout';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { TotpSection } from '../components/TotpSection';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Paper component="section" withBorder p="md" aria-labelledby={id}>
      <Stack gap="sm">
        <Title order={2} size="h4" id={id}>
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

/** The signed-in person: profile, two-step verification (TOTP), the mode switch, and where security settings live. */
export function SettingsPage() {
  const me = useMe();
  if (me.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading your settings" />
      </Center>
    );
  }
  if (me.isError) return <ErrorAlert title="Your settings could not be loaded" error={me.error} onRetry={() => void me.refetch()} />;
  const { name, email, email_verified, account, platform_role, totp_enabled, session } = me.data;

  return (
    <>
      <PageHeader title="Settings" description="Your profile, two-step verification and the mode the portal works in." />
      <Stack gap="md">
        <Section id="settings-profile" title="Profile">
          <Table.ScrollContainer minWidth={300}>
            <Table aria-label="Profile" variant="vertical" layout="fixed">
              <Table.Tbody>
                <Table.Tr>
                  <Table.Th w={140}>Name</Table.Th>
                  <Table.Td>{name}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>E-mail</Table.Th>
                  <Table.Td style={{ wordBreak: 'break-all' }}>
                    {email} ({email_verified ? 'verified' : 'not verified'})
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>Account</Table.Th>
                  <Table.Td>{account ? account.name : 'None (platform staff)'}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>Role</Table.Th>
                  <Table.Td>{account ? account.role : (platform_role ?? '—')}</Table.Td>
                </Table.Tr>
                {account && (
                  <Table.Tr>
                    <Table.Th>Identity</Table.Th>
                    <Table.Td>{account.identity_verified ? 'Verified: live mode available' : 'Not verified yet: test mode only'}</Table.Td>
                  </Table.Tr>
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Section>
        <Section id="settings-totp" title="Two-step verification">
          <TotpSection enabled={totp_enabled} />
        </Section>
        {account && (
          <Section id="settings-mode" title="Mode">
            <Text size="sm">
              The portal now shows <strong>{session.mode}</strong> data. Test mode is for building and trying things; live mode shows real payments and asks for a code from your
              authenticator app.
            </Text>
            <div>
              <ModeSwitch size="sm" />
            </div>
          </Section>
        )}
        <Section id="settings-security" title="Security">
          <Text size="sm">
            Limit where your API keys may be used from on the <Anchor component={Link} to="/ip-allowlist">IP allowlist</Anchor> page.
          </Text>
        </Section>
      </Stack>
    </>
  );
}
