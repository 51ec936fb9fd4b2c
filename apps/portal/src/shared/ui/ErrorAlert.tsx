import { Alert, Button, Text } from '@mantine/core';
import { isApiError } from '../api-client';

export interface ErrorAlertProps {
  title: string;
  error: unknown;
  onRetry?: () => void;
}

/** An API failure as people read it: the API's message, its code for support, and a retry. */
export function ErrorAlert({ title, error, onRetry }: ErrorAlertProps) {
  const message = error instanceof Error ? error.message : String(error);
  return (
    <Alert color="red" title={title} role="alert">
      <Text size="sm">{message}</Text>
      {isApiError(error) && (
        <Text size="xs" c="dimmed">
          {error.code}
          {error.status ? ` · HTTP ${error.status}` : ''}
        </Text>
      )}
      {onRetry && (
        <Button mt="sm" size="xs" variant="light" color="red" onClick={onRetry}>
          Try again
        </Button>
      )}
    </Alert>
  );
}
