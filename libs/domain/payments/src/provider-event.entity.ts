import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Mode } from '@gateway/contracts';

/** A provider webhook already processed, by the SHA-256 of its body: redeliveries are ignored. */
@Entity({ name: 'provider_events' })
export class ProviderEventEntity {
  @PrimaryColumn('text')
  digest: string;

  @Column('text')
  mode: Mode;

  @Column('text')
  event: string;

  @Column('timestamptz', { name: 'received_at' })
  receivedAt: Date;
}
