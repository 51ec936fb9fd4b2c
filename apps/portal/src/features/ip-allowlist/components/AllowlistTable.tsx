import { Button, Table, Text } from '@mantine/core';
import { formatTime } from '../../../shared/format/time';
import type { AllowlistEntry } from '../api';

export interface AllowlistTableProps {
  entries: AllowlistEntry[];
  /** Key id → how people know the key (hint and name); entries for keys of the other mode fall back to the id. */
  keyLabels: ReadonlyMap<string, string>;
  /** False for viewers: they see the entries but no actions. */
  canManage: boolean;
  onRemove: (entry: AllowlistEntry) => void;
}

export function AllowlistTable({ entries, keyLabels, canManage, onRemove }: AllowlistTableProps) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped highlightOnHover aria-label="IP allowlist">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Address or range</Table.Th>
            <Table.Th>Applies to</Table.Th>
            <Table.Th>Label</Table.Th>
            <Table.Th>Added</Table.Th>
            {canManage && <Table.Th>Actions</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => (
            <Table.Tr key={entry.id}>
              <Table.Td>
                <Text ff="monospace" size="sm">
                  {entry.cidr}
                </Text>
              </Table.Td>
              <Table.Td>{entry.api_key_id ? (keyLabels.get(entry.api_key_id) ?? `Key ${entry.api_key_id.slice(0, 8)}…`) : 'Every key'}</Table.Td>
              <Table.Td>{entry.label ?? <Text size="sm" c="dimmed">—</Text>}</Table.Td>
              <Table.Td>{formatTime(entry.created_at)}</Table.Td>
              {canManage && (
                <Table.Td>
                  <Button size="xs" variant="light" color="red" onClick={() => onRemove(entry)} aria-label={`Remove ${entry.cidr}`}>
                    Remove
                  </Button>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
