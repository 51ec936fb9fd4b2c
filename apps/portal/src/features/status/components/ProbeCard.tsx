import { useId } from 'react';
import type { ProbeState } from '../hooks/useServiceStatus';

export interface ProbeCardProps {
  title: string;
  /** e.g. `GET /health` */
  endpoint: string;
  description: string;
  state: ProbeState<unknown>;
  upLabel: string;
  downLabel: string;
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** One probe's result: a labelled region with its state in words (colour is only a hint). */
export function ProbeCard({ title, endpoint, description, state, upLabel, downLabel }: ProbeCardProps) {
  const headingId = useId();
  const label = state.phase === 'checking' ? 'Checking…' : state.phase === 'up' ? upLabel : downLabel;

  return (
    <section className="probe-card" aria-labelledby={headingId} data-phase={state.phase}>
      <h2 className="probe-card__title" id={headingId}>
        {title}
      </h2>
      <p className="probe-card__state">
        <span className="probe-card__dot" aria-hidden="true" />
        <strong>{label}</strong>
      </p>
      <p className="probe-card__description">{description}</p>
      <dl className="probe-card__facts">
        <div>
          <dt>Endpoint</dt>
          <dd>
            <code>{endpoint}</code>
          </dd>
        </div>
        {state.phase !== 'checking' && (
          <>
            <div>
              <dt>Response time</dt>
              <dd>{state.latencyMs} ms</dd>
            </div>
            <div>
              <dt>Checked at</dt>
              <dd>
                <time dateTime={state.checkedAt.toISOString()}>{timeFormat.format(state.checkedAt)}</time>
              </dd>
            </div>
          </>
        )}
        {state.phase === 'down' && (
          <>
            <div>
              <dt>Error</dt>
              <dd>
                <code>{state.error.code}</code>
                {state.error.status > 0 && <> (HTTP {state.error.status})</>}
              </dd>
            </div>
            <div>
              <dt>Message</dt>
              <dd>{state.error.message}</dd>
            </div>
          </>
        )}
      </dl>
    </section>
  );
}
