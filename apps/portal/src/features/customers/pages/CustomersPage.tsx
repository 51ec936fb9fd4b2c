import { Button, Center, Group, Loader, Paper, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useMe } from '../../auth';
import { PageHeader } from '../../../shared/layout';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { CustomersTable } from '../components/CustomersTable';
import { useCustomers } from '../hooks/useCustomers';

/** The session mode's customers, newest first; the search finds one by e-mail (the API's `email` filter is exact). */
export function CustomersPage() {
  const me = useMe();
  const mode = me.data?.session.mode ?? 'test';
  const [input, setInput] = useState('');
  const [email, setEmail] = useState<string | undefined>(undefined);
  const customers = useCustomers(email);
  const rows = customers.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    <>
      <PageHeader title="Customers" description={`Customers of your ${mode} payments, newest first.`} />
      <form
        role="search"
        aria-label="Find a customer"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setEmail(input.trim() || undefined);
        }}
      >
        <Group align="flex-end" mb="md" gap="xs">
          <TextInput label="E-mail" description="The customer's whole address" type="email" value={input} onChange={(event) => setInput(event.currentTarget.value)} style={{ flex: '1 1 16rem', maxWidth: '28rem' }} />
          <Button type="submit" variant="light">
            Search
          </Button>
          {email && (
            <Button
              variant="subtle"
              onClick={() => {
                setInput('');
                setEmail(undefined);
              }}
            >
              Clear
            </Button>
          )}
        </Group>
      </form>
      {customers.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading customers" />
        </Center>
      )}
      {customers.isError && <ErrorAlert title="The customers could not be loaded" error={customers.error} onRetry={() => void customers.refetch()} />}
      {customers.isSuccess && rows.length === 0 && (
        <Paper withBorder p="xl" ta="center">
          <Text fw={600}>{email ? `No customer with the e-mail ${email}` : `No ${mode} customers yet`}</Text>
          <Text size="sm" c="dimmed">
            {email ? 'Check the address, or clear the search.' : 'A customer is created with their first payment, or through the API.'}
          </Text>
        </Paper>
      )}
      {customers.isSuccess && rows.length > 0 && (
        <>
          <CustomersTable customers={rows} />
          {customers.hasNextPage && (
            <Center mt="md">
              <Button variant="default" onClick={() => void customers.fetchNextPage()} loading={customers.isFetchingNextPage}>
                Load more
              </Button>
            </Center>
          )}
        </>
      )}
    </>
  );
}
