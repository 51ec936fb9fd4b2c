import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A portal e-mail queued for the SMTP server; its body (link tokens) sealed, bound to the id. */
@Entity({ name: 'outbound_mails' })
export class OutboundMailEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text')
  recipient: string;

  @Column('text')
  subject: string;

  @Column('text', { name: 'body_sealed' })
  bodySealed: string;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}
