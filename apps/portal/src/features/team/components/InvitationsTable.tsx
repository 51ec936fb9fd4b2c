import { Badge, Button, Table } from '@mantine/core';
import { formatTime } from '../../../shared/format/time';
import type { Invitation } from '../api';

export interface InvitationsTableProps {
  invitations: Invitation[];
  onWithdraw: (invitation: Invitation) => void;
}

/** Only admins and owners see this table, so it always has its action. */
export function InvitationsTable({ invitations, onWithdraw }: InvitationsTableProps) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped highlightOnHover aria-label="Pending invitations">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>E-mail</Table.Th>
            <Table.Th>Role</Table.Th>
            <Table.Th>Sent</Table.Th>
            <Table.Th>Expires</Table.Th>
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {invitations.map((invitation) => (
            <Table.Tr key={invitation.id}>
              <Table.Td>{invitation.email}</Table.Td>
              <Table.Td>
                <Badge variant="light">{invitation.role}</Badge>
              </Table.Td>
              <Table.Td>{formatTime(invitation.created_at)}</Table.Td>
              <Table.Td>{formatTime(invitation.expires_at)}</Table.Td>
              <Table.Td>
                <Button size="xs" variant="light" color="red" onClick={() => onWithdraw(invitation)} aria-label={`Withdraw the invitation to ${invitation.email}`}>
                  Withdraw
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
