import { Anchor, Button, Center, Group, Loader, Paper, Select, SimpleGrid, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { formatTime } from '../../../shared/format/time';
import { PageHeader } from '../../../shared/layout';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { usePlatformAccess } from '../permissions';
import type { DeveloperFilters, DeveloperStatus } from './api';
import { DeveloperStatusBadges } from './DeveloperStatusBadges';
import { useDevelopers } from './hooks';
import { ProvisionModal } from './ProvisionModal';

const STATUSES: { value: DeveloperStatus; label: string }[] = [
  { value: 'active', label: 'Active' },
  { value: 'suspended', label: 'Suspended' },
];

/** Developer accounts, newest first: search by name or e-mail, filter by status, provision a new one (admins). */
export function DevelopersPage() {
  const { can } = usePlatformAccess();
  const navigate = useNavigate();
  const [provisioning, setProvisioning] = useState(false);
  const [filters, setFilters] = useState<DeveloperFilters>({});
  const developers = useDevelopers(filters);
  const rows = developers.data?.pages.flatMap((page) => page.data) ?? [];
  const filtered = Boolean(filters.q || filters.status);
  const form = useForm({ initialValues: { q: '', status: null as string | null } });

  return (
    <>
      <PageHeader
        title="Developers"
        description="Developer accounts on the platform, newest first."
        actions={can('platform:developers:manage') && <Button onClick={() => setProvisioning(true)}>Provision account</Button>}
      />
      <form
        aria-label="Search developers"
        noValidate
        onSubmit={form.onSubmit(({ q, status }) => setFilters({ q: q.trim() || undefined, status: (status as DeveloperStatus | null) ?? undefined }))}
      >
        <SimpleGrid cols={{ base: 1, sm: 2 }} mb="sm" maw={640}>
          <TextInput label="Name or e-mail" placeholder="Part of either" {...form.getInputProps('q')} />
          <Select label="Status" placeholder="Any" data={STATUSES} clearable {...form.getInputProps('status')} />
        </SimpleGrid>
        <Group mb="md" gap="xs">
          <Button type="submit" variant="light">
            Search
          </Button>
          <Button
            variant="subtle"
            onClick={() => {
              form.reset();
              setFilters({});
            }}
          >
            Clear
          </Button>
        </Group>
      </form>
      {developers.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading developers" />
        </Center>
      )}
      {developers.isError && <ErrorAlert title="The developers could not be loaded" error={developers.error} onRetry={() => void developers.refetch()} />}
      {developers.isSuccess && rows.length === 0 && (
        <Paper withBorder p="xl" ta="center">
          <Text fw={600}>{filtered ? 'No developer account matches' : 'No developer accounts yet'}</Text>
          <Text size="sm" c="dimmed">
            {filtered ? 'Try part of the name or e-mail, or another status.' : 'Provision an account: its owner is invited by e-mail.'}
          </Text>
        </Paper>
      )}
      {developers.isSuccess && rows.length > 0 && (
        <>
          <Table.ScrollContainer minWidth={760}>
            <Table striped highlightOnHover aria-label="Developers">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Account</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Created</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((d) => (
                  <Table.Tr key={d.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/admin/developers/${d.id}`}>
                        {d.name}
                      </Anchor>
                      <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
                        {d.email}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <DeveloperStatusBadges status={d.status} emailVerified={d.email_verified_at !== null} identityVerified={d.identity_verified_at !== null} />
                      {d.suspension_reason && (
                        <Text size="xs" c="dimmed">
                          {d.suspension_reason}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{formatTime(d.created_at)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {developers.hasNextPage && (
            <Center mt="md">
              <Button variant="default" onClick={() => void developers.fetchNextPage()} loading={developers.isFetchingNextPage}>
                Load more
              </Button>
            </Center>
          )}
        </>
      )}
      <ProvisionModal opened={provisioning} onClose={() => setProvisioning(false)} onProvisioned={(p) => void navigate(`/admin/developers/${p.developer.id}`)} />
    </>
  );
}
