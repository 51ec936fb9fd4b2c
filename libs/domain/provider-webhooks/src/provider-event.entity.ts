import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Mode } from '@gateway/contracts';

/**
 * A provider webhook claimed for processing, by the SHA-256 of its body: redeliveries of a
 * processed one are ignored (see ProviderWebhooksService for the claim).
 */
@Entity({ name: 'provider_events' })
export class ProviderEventEntity {
  @PrimaryColumn('text')
  digest: string;

  @Column('text')
  mode: Mode;

  @Column('text')
  event: string;

  /** When the current claim was taken. */
  @Column('timestamptz', { name: 'received_at' })
  receivedAt: Date;

  /** Set once processing succeeded; null while a claim is being processed. */
  @Column('timestamptz', { name: 'processed_at', nullable: true })
  processedAt: Date | null;
}
