import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { AccountRole } from '../roles';

/** A user's place in one developer account (one per user: the user id is the key). */
@Entity({ name: 'memberships' })
export class MembershipEntity {
  @PrimaryColumn('uuid', { name: 'user_id' })
  userId: string;

  @Column('uuid', { name: 'developer_id' })
  developerId: string;

  @Column('text')
  role: AccountRole;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
