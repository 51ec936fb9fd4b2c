import { Alert, Button, Text } from '@mantine/core';
import { Link } from 'react-router';
import { PageHeader } from '../../../shared/layout';

/** What a person without the platform role a page needs sees instead (the API refuses them too: 403 insufficient_role). */
export function NotPermitted({ staff }: { staff: boolean }) {
  return (
    <>
      <PageHeader title="Not permitted" />
      <Alert color="orange" title="This page is for the platform's staff" role="status">
        <Text size="sm">
          {staff
            ? 'Your platform role does not include this page. A platform admin can do it.'
            : 'The admin console is open to platform admins and financial secretaries only. Members of developer accounts cannot use it.'}
        </Text>
      </Alert>
      <Button component={Link} to={staff ? '/admin' : '/dashboard'} variant="default" mt="md">
        {staff ? 'Back to the admin console' : 'Back to your dashboard'}
      </Button>
    </>
  );
}
