import { Text, Timeline } from '@mantine/core';
import { formatTime } from '../../../shared/format/time';
import type { Payment, Refund } from '../api';
import { paymentEvents } from '../timeline';

export function PaymentTimeline({ payment, refunds }: { payment: Payment; refunds: Refund[] }) {
  const events = paymentEvents(payment, refunds);
  return (
    <Timeline active={events.length - 1} bulletSize={14} lineWidth={2} aria-label="Payment timeline">
      {events.map((event) => (
        <Timeline.Item key={event.key} title={event.title} color={event.color}>
          {event.detail && (
            <Text size="sm" style={{ wordBreak: 'break-word' }}>
              {event.detail}
            </Text>
          )}
          {event.time && (
            <Text size="xs" c="dimmed">
              <time dateTime={event.time}>{formatTime(event.time)}</time>
            </Text>
          )}
        </Timeline.Item>
      ))}
    </Timeline>
  );
}
