import { Anchor, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { PageHeader } from '../shared/layout';

export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <>
      <PageHeader title="Page not found" />
      <Text>
        There is no portal page at <code>{pathname}</code>.{' '}
        <Anchor component={Link} to="/status">
          Go to the API status
        </Anchor>
        .
      </Text>
    </>
  );
}
