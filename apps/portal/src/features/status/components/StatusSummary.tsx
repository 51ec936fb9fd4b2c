import type { OverallStatus } from '../hooks/useServiceStatus';

const MESSAGES: Record<OverallStatus, { title: string; detail: string }> = {
  checking: { title: 'Checking the API…', detail: 'Asking the API whether it is up and ready.' },
  operational: { title: 'The API is up and ready', detail: 'It is serving requests and its database is ready.' },
  'not-ready': {
    title: 'The API is up but not ready',
    detail: 'The process answers, but it cannot serve traffic yet (database unreachable or migrations pending).',
  },
  down: {
    title: 'The API is down',
    detail: 'The API did not answer its liveness probe. Check that it is running and reachable from this portal.',
  },
};

/** The overall verdict, announced politely to screen readers when it changes. */
export function StatusSummary({ status }: { status: OverallStatus }) {
  const { title, detail } = MESSAGES[status];
  return (
    <div className="status-summary" role="status" data-status={status}>
      <p className="status-summary__title">{title}</p>
      <p className="status-summary__detail">{detail}</p>
    </div>
  );
}
