import { Anchor, Badge, Progress, Table, Text } from '@mantine/core';
import { formatTime } from '../../../shared/format/time';
import { downloadHref, type ExportJob, type ExportStatus } from '../api';
import { exportTypeLabel, formatFileSize, isInProgress } from '../export-types';

const STATUS: Record<ExportStatus, { label: string; color: string }> = {
  queued: { label: 'queued', color: 'gray' },
  running: { label: 'running', color: 'blue' },
  completed: { label: 'ready', color: 'green' },
  failed: { label: 'failed', color: 'red' },
  expired: { label: 'expired', color: 'gray' },
};

function filtersText(job: ExportJob): string {
  const parts = [`${formatTime(job.filters.from)} – ${formatTime(job.filters.to)}`];
  if (job.filters.currency) parts.push(job.filters.currency);
  if (job.filters.status) parts.push(job.filters.status);
  return parts.join(' · ');
}

function rowsText(job: ExportJob): string {
  if (job.rows_total === null) return job.status === 'queued' ? 'Waiting to start' : `${job.rows_done} rows`;
  return `${job.rows_done} of ${job.rows_total} rows`;
}

/** The exports, newest first: what, which range, progress while written, the download once ready. */
export function ExportsTable({ exports }: { exports: ExportJob[] }) {
  return (
    <Table.ScrollContainer minWidth={860}>
      <Table striped aria-label="Exports">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Requested</Table.Th>
            <Table.Th>Export</Table.Th>
            <Table.Th>Range and filters</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>File</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {exports.map((job) => (
            <Table.Tr key={job.reference} data-reference={job.reference} data-status={job.status}>
              <Table.Td>{formatTime(job.created_at)}</Table.Td>
              <Table.Td>
                <Text size="sm">{exportTypeLabel(job.type)}</Text>
                <Text size="xs" c="dimmed" ff="monospace">
                  {job.reference}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{filtersText(job)}</Text>
              </Table.Td>
              <Table.Td miw={180}>
                <Badge color={STATUS[job.status]?.color ?? 'gray'} variant="light" miw="max-content">
                  {STATUS[job.status]?.label ?? job.status}
                </Badge>
                {isInProgress(job.status) && (
                  <>
                    <Progress value={job.progress} mt={6} size="sm" aria-label={`Progress of ${job.reference}`} animated={job.status === 'running'} />
                    <Text size="xs" c="dimmed">
                      {job.progress}% · {rowsText(job)}
                    </Text>
                  </>
                )}
                {job.status === 'failed' && (
                  <Text size="xs" c="dimmed">
                    {job.error ? `Reason: ${job.error}` : 'The export could not be written.'} Request it again.
                  </Text>
                )}
                {job.status === 'expired' && (
                  <Text size="xs" c="dimmed">
                    The file was deleted {formatTime(job.expires_at)}. Request it again.
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                {job.status === 'completed' ? (
                  <>
                    <Anchor href={downloadHref(job.reference)} download size="sm" aria-label={`Download CSV of ${job.reference}`}>
                      Download CSV
                    </Anchor>
                    <Text size="xs" c="dimmed">
                      {job.rows_done} rows · {formatFileSize(job.file_size)}
                    </Text>
                    {job.expires_at && (
                      <Text size="xs" c="dimmed">
                        Until {formatTime(job.expires_at)}
                      </Text>
                    )}
                  </>
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
