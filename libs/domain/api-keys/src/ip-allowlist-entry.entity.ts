import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'ip_allowlist_entries' })
export class IpAllowlistEntryEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'developer_id' })
  developerId: string;

  /** Null: applies to every key of the developer. */
  @Column('uuid', { name: 'api_key_id', nullable: true })
  apiKeyId: string | null;

  @Column('cidr')
  cidr: string;

  @Column('text', { nullable: true })
  label: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}
