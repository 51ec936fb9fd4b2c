import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A message kept instead of sent, when no SMTP server is configured (never in production). */
@Entity({ name: 'dev_mailbox' })
export class DevMailEntity {
  /** Insertion order (bigserial), read as a string. */
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column('text')
  recipient: string;

  @Column('text')
  subject: string;

  @Column('text')
  body: string;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}
