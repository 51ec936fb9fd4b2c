import { Badge, Button, Group, Table, Text } from '@mantine/core';
import { formatTime } from '../../../shared/format/time';
import type { Member } from '../api';

export interface MembersTableProps {
  members: Member[];
  /** The signed-in user: marked "you", and not offered removal of themself. */
  currentUserId: string | undefined;
  /** False below admin: the team is read-only. */
  canManage: boolean;
  onChangeRole: (member: Member) => void;
  onRemove: (member: Member) => void;
}

export function MembersTable({ members, currentUserId, canManage, onChangeRole, onRemove }: MembersTableProps) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped highlightOnHover aria-label="Team members">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Member</Table.Th>
            <Table.Th>Role</Table.Th>
            <Table.Th>Joined</Table.Th>
            {canManage && <Table.Th>Actions</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {members.map((member) => (
            <Table.Tr key={member.user_id}>
              <Table.Td>
                <Text size="sm" fw={500}>
                  {member.name}
                  {member.user_id === currentUserId && ' (you)'}
                </Text>
                <Text size="xs" c="dimmed">
                  {member.email}
                </Text>
              </Table.Td>
              <Table.Td>
                <Badge variant="light">{member.role}</Badge>
              </Table.Td>
              <Table.Td>{formatTime(member.joined_at)}</Table.Td>
              {canManage && (
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button size="xs" variant="light" onClick={() => onChangeRole(member)} aria-label={`Change the role of ${member.email}`}>
                      Change role
                    </Button>
                    {member.user_id !== currentUserId && (
                      <Button size="xs" variant="light" color="red" onClick={() => onRemove(member)} aria-label={`Remove ${member.email}`}>
                        Remove
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
