import { PageHeader } from '../../../shared/layout';
import { API_DOCS_URL, OPENAPI_JSON_URL } from '../../../shared/links';
import { HEALTH_PATH, READY_PATH } from '../api';
import { ProbeCard } from '../components/ProbeCard';
import { StatusSummary } from '../components/StatusSummary';
import { useServiceStatus } from '../hooks/useServiceStatus';
import '../status.css';

/** API status: the gateway API's liveness and readiness, checked from the browser. */
export function StatusPage() {
  const { health, readiness, overall, checking, refresh } = useServiceStatus();

  return (
    <>
      <PageHeader
        title="API status"
        description="Liveness and readiness of the gateway API, checked from your browser every 30 seconds."
        actions={
          <button type="button" className="button" onClick={refresh} aria-busy={checking}>
            {checking ? 'Checking…' : 'Check again'}
          </button>
        }
      />
      <StatusSummary status={overall} />
      <div className="probe-grid">
        <ProbeCard
          title="Liveness"
          endpoint={`GET ${HEALTH_PATH}`}
          description="The API process is up and serving HTTP."
          state={health}
          upLabel="Up"
          downLabel="Down"
        />
        <ProbeCard
          title="Readiness"
          endpoint={`GET ${READY_PATH}`}
          description="The database answers and every migration is applied."
          state={readiness}
          upLabel="Ready"
          downLabel="Not ready"
        />
      </div>
      <section className="status-docs" aria-labelledby="status-docs-title">
        <h2 id="status-docs-title">API documentation</h2>
        <p>
          Every endpoint, its parameters and its error codes are described in the{' '}
          <a href={API_DOCS_URL}>API reference</a> (OpenAPI document: <a href={OPENAPI_JSON_URL}>docs.json</a>).
        </p>
      </section>
    </>
  );
}
