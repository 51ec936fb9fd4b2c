import type { Mode } from '../common/mode';
import type { WebhookAttemptError } from '../webhooks/webhook.dto';

/** A webhook endpoint whose deliveries failed in the last seven days, as platform staff see it. */
export class AdminFailingWebhookEndpointResponse {
  /** The endpoint's public id. @example "whk_4c1d2e3f4a5b6c7d8e9f0a1b" */
  id: string;
  developer_id: string;
  developer_name: string;
  mode: Mode;
  /** Only the host (and port) of the endpoint's URL: its path and query may carry the account's own tokens. @example "hooks.example.com" */
  url_host: string;
  /** Failed attempts (automatic, manual and test) in the last seven days. */
  failed_deliveries: number;
  last_failure_at: string;
  /** The last failure's short class (`refused`, `timeout`, `http_status`, …). */
  last_error: WebhookAttemptError | null;
  /** The receiver's HTTP status on the last failure, when it answered. */
  last_status_code: number | null;
  /** Failed attempts since its last successful one (all of them if none succeeded); 0 once it recovered. */
  consecutive_failures: number;
}
