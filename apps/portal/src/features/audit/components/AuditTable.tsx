import { Button, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { formatTime } from '../../../shared/format/time';
import type { AuditEventRow } from '../api';

const ACTOR_TYPES: Record<string, string> = { user: 'person', api_key: 'API key', operator: 'operator', system: 'system' };

/**
 * The audit log's rows: when, who, what, on which object, from where; the before/after on demand.
 * `account`: the platform-wide log's extra column (whose account an entry concerns).
 */
export function AuditTable({ events, onShowChanges, account }: { events: AuditEventRow[]; onShowChanges: (event: AuditEventRow) => void; account?: (event: AuditEventRow) => ReactNode }) {
  return (
    <Table.ScrollContainer minWidth={account ? 1000 : 900}>
      <Table striped aria-label="Audit log">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Time</Table.Th>
            {account && <Table.Th>Account</Table.Th>}
            <Table.Th>Actor</Table.Th>
            <Table.Th>Action</Table.Th>
            <Table.Th>Target</Table.Th>
            <Table.Th>IP</Table.Th>
            <Table.Th>Changes</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {events.map((event) => (
            <Table.Tr key={event.id} data-action={event.action}>
              <Table.Td>{formatTime(event.occurred_at)}</Table.Td>
              {account && <Table.Td>{account(event)}</Table.Td>}
              <Table.Td>
                <Text size="sm" style={{ wordBreak: 'break-all' }}>
                  {event.actor.label ?? event.actor.id ?? '—'}
                </Text>
                <Text size="xs" c="dimmed">
                  {ACTOR_TYPES[event.actor.type] ?? event.actor.type}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {event.action}
                </Text>
              </Table.Td>
              <Table.Td>
                {event.target ? (
                  <>
                    <Text size="sm">{event.target.type}</Text>
                    <Text size="xs" c="dimmed" ff="monospace" style={{ wordBreak: 'break-all' }}>
                      {event.target.id}
                    </Text>
                  </>
                ) : (
                  '—'
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {event.ip ?? '—'}
                </Text>
              </Table.Td>
              <Table.Td>
                {event.before || event.after ? (
                  <Button size="xs" variant="light" onClick={() => onShowChanges(event)} aria-label={`Show changes of ${event.action} at ${formatTime(event.occurred_at)}`}>
                    Show changes
                  </Button>
                ) : (
                  <Text size="sm" c="dimmed">
                    —
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
