import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { DeliveredEventName, Mode } from '@gateway/contracts';

/** One row of the events outbox: written in the transaction of the change that caused it. */
@Entity({ name: 'events' })
export class EventEntity {
  /** Stable public id (`evt_…`), the same in every delivery attempt. */
  @PrimaryColumn('text')
  id: string;

  @Column('uuid', { name: 'developer_id' })
  developerId: string;

  @Column('text')
  mode: Mode;

  /** A catalog event, or `webhook.test` (a test delivery's). */
  @Column('text')
  name: DeliveredEventName;

  /** The merchant-visible wire object (never provider ids). */
  @Column('jsonb')
  data: Record<string, unknown>;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}
