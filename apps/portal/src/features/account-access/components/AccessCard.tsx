import { Anchor, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';
import { Link } from 'react-router';
import { PRODUCT_NAME } from '../../../shared/links';

/** The centred card of the pages reached from an e-mailed link or without a session (as sign-in's). */
export function AccessCard({ title, children }: { title: string; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · ${PRODUCT_NAME}`;
  }, [title]);
  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={440}>
        <Stack>
          <div>
            <Text c="dimmed" size="sm">
              {PRODUCT_NAME} developer portal
            </Text>
            <Title order={1} size="h2">
              {title}
            </Title>
          </div>
          {children}
          <Anchor component={Link} to="/sign-in" size="sm">
            Back to sign in
          </Anchor>
        </Stack>
      </Paper>
    </Center>
  );
}
