import { Badge, Button, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import { ModeSwitch, useMe, useSignOut } from '../features/auth';

/** Who is signed in, to which account, in which mode (a Test / Live switch) — or a way to sign in. */
export function AccountMenu() {
  const me = useMe();
  const signOut = useSignOut();
  if (!me.data) {
    return (
      <Button component={Link} to="/sign-in" size="xs" variant="light">
        Sign in
      </Button>
    );
  }
  const { account, email, session } = me.data;
  return (
    <Group gap="xs" wrap="nowrap" aria-label="Your account" role="group" style={{ minWidth: 0 }}>
      {/* On a phone the mode switch and the button keep their size; the account name gives way (truncated). */}
      {account ? (
        <ModeSwitch />
      ) : (
        <Badge color={session.mode === 'live' ? 'green' : 'orange'} variant="light" style={{ flexShrink: 0 }}>
          {session.mode === 'live' ? 'Live mode' : 'Test mode'}
        </Badge>
      )}
      <div style={{ minWidth: 0 }}>
        <Text size="sm" fw={600} lh={1.2} data-testid="account-name" truncate="end">
          {account?.name ?? 'Platform staff'}
        </Text>
        <Text size="xs" c="dimmed" lh={1.2} visibleFrom="sm">
          {email}
          {account ? ` · ${account.role}` : ''}
        </Text>
      </div>
      <Button size="xs" variant="default" onClick={() => signOut.mutate()} loading={signOut.isPending} style={{ flexShrink: 0 }}>
        Sign out
      </Button>
    </Group>
  );
}
