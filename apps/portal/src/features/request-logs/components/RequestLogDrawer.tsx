import { Button, Drawer, Stack } from '@mantine/core';
import { Link } from 'react-router';
import type { RequestLog } from '../api';
import { RequestLogDetails } from './RequestLogDetails';

export interface RequestLogDrawerProps {
  log: RequestLog | null;
  onClose: () => void;
}

/** One request in full, and the way to its trace (what it posted, emitted and delivered). */
export function RequestLogDrawer({ log, onClose }: RequestLogDrawerProps) {
  return (
    <Drawer opened={log !== null} onClose={onClose} position="right" size="lg" title="Request details">
      {log && (
        <Stack>
          <RequestLogDetails log={log} />
          <Button component={Link} to={`/request-logs/${encodeURIComponent(log.request_id)}`} variant="light" style={{ alignSelf: 'flex-start' }}>
            View trace
          </Button>
        </Stack>
      )}
    </Drawer>
  );
}
