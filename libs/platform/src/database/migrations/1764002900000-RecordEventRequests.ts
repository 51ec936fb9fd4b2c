import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A request's trace (GET /api/v1/requests/{request_id}, docs/request-logs.md) lists the events the
 * request emitted, with each delivery and attempt. Events now record the API request that caused
 * them (`request_id`, the X-Request-Id, `req_…`); events written before, or outside a request
 * (scheduler scans, queue jobs), have none. The partial index holds only events with a request,
 * per tenant, so the trace finds them without reading the others; it starts empty, as every
 * existing row has no request.
 *
 * The trace then reads each event's deliveries: webhook_deliveries had no index leading with the
 * event (its unique key is (endpoint_id, event_id)), so one is added.
 */
export class RecordEventRequests1764002900000 implements MigrationInterface {
  name = 'RecordEventRequests1764002900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE events ADD COLUMN request_id text NULL`);
    await q.query(`CREATE INDEX events_request ON events (developer_id, mode, request_id) WHERE request_id IS NOT NULL`);
    await q.query(`CREATE INDEX webhook_deliveries_event ON webhook_deliveries (event_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX webhook_deliveries_event`);
    await q.query(`DROP INDEX events_request`);
    await q.query(`ALTER TABLE events DROP COLUMN request_id`);
  }
}
