import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export interface SandboxSectionProps {
  /** The section's heading (an `<h2>`), also its accessible name. */
  title: string;
  description?: ReactNode;
  children: ReactNode;
}

/** One sandbox control: a bordered region named by its heading. */
export function SandboxSection({ title, description, children }: SandboxSectionProps) {
  const id = `sandbox-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <Paper component="section" withBorder p="md" aria-labelledby={id}>
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4" id={id}>
            {title}
          </Title>
          {description && (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          )}
        </div>
        {children}
      </Stack>
    </Paper>
  );
}
