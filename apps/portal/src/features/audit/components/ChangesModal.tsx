import { Modal, Table, Text } from '@mantine/core';
import type { AuditEventRow } from '../api';
import { diffStates, showValue } from '../diff';

/** An audit row's before and after states side by side, changed fields first and marked. */
export function ChangesModal({ event, onClose }: { event: AuditEventRow | null; onClose: () => void }) {
  const changes = event ? diffStates(event.before as Record<string, unknown> | null, event.after as Record<string, unknown> | null) : [];
  return (
    <Modal opened={event !== null} onClose={onClose} title={event ? `Changes: ${event.action}` : 'Changes'} size="xl" closeButtonProps={{ 'aria-label': 'Close' }}>
      {changes.length === 0 ? (
        <Text size="sm" c="dimmed">
          This action recorded no state.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={520}>
          <Table aria-label="Before and after">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Field</Table.Th>
                <Table.Th>Before</Table.Th>
                <Table.Th>After</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {changes.map((change) => (
                <Table.Tr key={change.field} data-changed={change.changed}>
                  <Table.Td>
                    <Text size="sm" ff="monospace" fw={change.changed ? 700 : 400}>
                      {change.field}
                    </Text>
                    {change.changed && (
                      <Text size="xs" c="orange.9">
                        changed
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }} td={change.changed && change.before !== undefined ? 'line-through' : undefined}>
                      {showValue(change.before)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }} fw={change.changed ? 600 : 400}>
                      {showValue(change.after)}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Modal>
  );
}
