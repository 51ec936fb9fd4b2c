import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { Mode, WebhookAttemptError, WebhookDisabledReason, WebhookEndpointStatus, WebhookVersion } from '@gateway/contracts';

@Entity({ name: 'webhook_endpoints' })
export class WebhookEndpointEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  /** Public id (`whk_…`). */
  @Column('text') reference: string;
  @Column('uuid', { name: 'developer_id' }) developerId: string;
  @Column('text') mode: Mode;
  @Column('text') url: string;
  @Column('text', { array: true }) events: string[];
  @Column('text', { name: 'webhook_version' }) webhookVersion: WebhookVersion;
  /** AES-256-GCM with a key id (platform Encryptor), bound to the endpoint's reference. */
  @Column('text', { name: 'secret_ciphertext' }) secretCiphertext: string;
  @Column('text', { name: 'previous_secret_ciphertext', nullable: true }) previousSecretCiphertext: string | null;
  @Column('timestamptz', { name: 'previous_secret_expires_at', nullable: true }) previousSecretExpiresAt: Date | null;
  /** Moves only through ENDPOINT_TRANSITIONS (disabled by the failing-endpoints scan, enabled by its owner). */
  @Column('text') status: WebhookEndpointStatus;
  @Column('timestamptz', { name: 'disabled_at', nullable: true }) disabledAt: Date | null;
  @Column('text', { name: 'disabled_reason', nullable: true }) disabledReason: WebhookDisabledReason | null;
  // Health, written only by the transaction that logs an attempt (and reset by re-enabling):
  // never saved from a loaded entity, which could carry stale values back.
  @Column('timestamptz', { name: 'last_success_at', nullable: true }) lastSuccessAt: Date | null;
  @Column('timestamptz', { name: 'last_failure_at', nullable: true }) lastFailureAt: Date | null;
  @Column('text', { name: 'last_failure_error', nullable: true }) lastFailureError: WebhookAttemptError | null;
  @Column('integer', { name: 'last_failure_status_code', nullable: true }) lastFailureStatusCode: number | null;
  /** Deliveries that ended failed since the last successful attempt (or re-enabling); test deliveries never count. */
  @Column('integer', { name: 'consecutive_failed_deliveries' }) consecutiveFailedDeliveries: number;
  /** The first failed attempt of the current run; null while healthy. */
  @Column('timestamptz', { name: 'failing_since', nullable: true }) failingSince: Date | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt: Date;
  @Column('timestamptz', { name: 'deleted_at', nullable: true }) deletedAt: Date | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

@Entity({ name: 'webhook_deliveries' })
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid', { name: 'developer_id' }) developerId: string;
  @Column('text') mode: Mode;
  @Column('uuid', { name: 'endpoint_id' }) endpointId: string;
  @Column('text', { name: 'event_id' }) eventId: string;
  @Column('text') status: DeliveryStatus;
  @Column('integer') attempts: number;
  @Column('timestamptz', { name: 'next_attempt_at' }) nextAttemptAt: Date;
  @Column('timestamptz', { name: 'lease_until', nullable: true }) leaseUntil: Date | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
  @Column('timestamptz', { name: 'completed_at', nullable: true }) completedAt: Date | null;
  /** Set by a replay while the delivery waits for its one replayed attempt; meaningful only while `pending`. */
  @Column('timestamptz', { name: 'replay_requested_at', nullable: true }) replayRequestedAt: Date | null;
}

export type AttemptTrigger = 'automatic' | 'manual' | 'test' | 'replay';

@Entity({ name: 'webhook_delivery_logs' })
export class WebhookDeliveryLogEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  /** Public `log_id` (`whl_…`). */
  @Column('text') reference: string;
  @Column('uuid', { name: 'delivery_id' }) deliveryId: string;
  @Column('uuid', { name: 'developer_id' }) developerId: string;
  @Column('text') mode: Mode;
  @Column('uuid', { name: 'endpoint_id' }) endpointId: string;
  @Column('text', { name: 'event_id' }) eventId: string;
  @Column('text', { name: 'event_name' }) eventName: string;
  @Column('integer') attempt: number;
  @Column('text') trigger: AttemptTrigger;
  @Column('boolean') success: boolean;
  @Column('integer', { name: 'status_code', nullable: true }) statusCode: number | null;
  @Column('integer', { name: 'latency_ms' }) latencyMs: number;
  /** A short class only (a CHECK constraint holds the list), never a socket's or receiver's message. */
  @Column('text', { nullable: true }) error: WebhookAttemptError | null;
  /** Kept only from targets the live-mode URL rules accept (see postWebhook). */
  @Column('text', { name: 'response_body', nullable: true }) responseBody: string | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt: Date;
}
