import { Badge, Button, Group, Table, Text } from '@mantine/core';
import type { PortalKey } from '../api';

const STATUS_COLOR: Record<PortalKey['status'], string> = { active: 'green', expiring: 'yellow', expired: 'gray', revoked: 'red' };

/** Times in the user's own zone and locale. */
function when(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : 'Never';
}

export interface KeysTableProps {
  keys: PortalKey[];
  /** False for viewers: they see keys but no actions. */
  canManage: boolean;
  onRotate: (key: PortalKey) => void;
  onRevoke: (key: PortalKey) => void;
}

export function KeysTable({ keys, canManage, onRotate, onRevoke }: KeysTableProps) {
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped highlightOnHover aria-label="API keys">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Key</Table.Th>
            <Table.Th>Kind</Table.Th>
            <Table.Th>Scopes</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Last used</Table.Th>
            {canManage && <Table.Th>Actions</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {keys.map((key) => (
            <Table.Tr key={key.id}>
              <Table.Td>
                <Text ff="monospace" size="sm">
                  {key.hint}
                </Text>
                {key.name && (
                  <Text size="xs" c="dimmed">
                    {key.name}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{key.kind}</Table.Td>
              <Table.Td>{key.scopes.length ? key.scopes.join(', ') : <Text size="sm">Full access</Text>}</Table.Td>
              <Table.Td>
                <Badge color={STATUS_COLOR[key.status]} variant="light">
                  {key.status}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{when(key.last_used_at)}</Text>
                {key.last_used_ip && (
                  <Text size="xs" c="dimmed">
                    {key.last_used_ip}
                  </Text>
                )}
              </Table.Td>
              {canManage && (
                <Table.Td>
                  {key.status !== 'revoked' && key.status !== 'expired' && (
                    <Group gap="xs" wrap="nowrap">
                      <Button size="xs" variant="light" onClick={() => onRotate(key)} aria-label={`Rotate ${key.hint}`}>
                        Rotate
                      </Button>
                      <Button size="xs" variant="light" color="red" onClick={() => onRevoke(key)} aria-label={`Revoke ${key.hint}`}>
                        Revoke
                      </Button>
                    </Group>
                  )}
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
