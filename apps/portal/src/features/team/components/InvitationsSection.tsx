import { Center, Loader, Paper, Text, Title } from '@mantine/core';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import type { Invitation } from '../api';
import { useInvitations } from '../hooks/useTeam';
import { InvitationsTable } from './InvitationsTable';

export interface InvitationsSectionProps {
  onWithdraw: (invitation: Invitation) => void;
}

/** Pending invitations; rendered for admins and owners only, the roles the API shows them to. */
export function InvitationsSection({ onWithdraw }: InvitationsSectionProps) {
  const invitations = useInvitations();
  return (
    <section aria-labelledby="invitations-title">
      <Title order={2} size="h4" mt="xl" mb="sm" id="invitations-title">
        Pending invitations
      </Title>
      {invitations.isPending && (
        <Center py="md">
          <Loader aria-label="Loading invitations" />
        </Center>
      )}
      {invitations.isError && <ErrorAlert title="The invitations could not be loaded" error={invitations.error} onRetry={() => void invitations.refetch()} />}
      {invitations.isSuccess && invitations.data.length === 0 && (
        <Paper withBorder p="lg" ta="center">
          <Text size="sm" c="dimmed">
            No pending invitations.
          </Text>
        </Paper>
      )}
      {invitations.isSuccess && invitations.data.length > 0 && <InvitationsTable invitations={invitations.data} onWithdraw={onWithdraw} />}
    </section>
  );
}
