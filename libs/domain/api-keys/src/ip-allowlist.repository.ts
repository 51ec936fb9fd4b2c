import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { IpAllowlistEntryEntity } from './ip-allowlist-entry.entity';

/** The columns of a new entry; the database draws its id. */
export type NewIpAllowlistRow = Omit<IpAllowlistEntryEntity, 'id'>;

/** Allowlist entries, per developer (they apply to both modes, so they carry no mode). */
@Injectable()
export class IpAllowlistRepository {
  constructor(@InjectRepository(IpAllowlistEntryEntity) private readonly entries: Repository<IpAllowlistEntryEntity>) {}

  /** The developer's entries, oldest first. */
  listOfDeveloper(developerId: string): Promise<IpAllowlistEntryEntity[]> {
    return this.entries.find({ where: { developerId }, order: { createdAt: 'ASC' } });
  }

  /** Inserts the entry unless the developer lists this range already for the same key (or developer-wide alike); its id, or null when ignored. */
  async insertIfAbsent(manager: EntityManager, row: NewIpAllowlistRow): Promise<string | null> {
    const inserted = await manager.createQueryBuilder().insert().into(IpAllowlistEntryEntity).values(row).orIgnore().returning('*').execute();
    return (inserted.raw as Array<{ id: string }>)[0]?.id ?? null;
  }

  /** The entry with this id; throws EntityNotFoundError when there is none. */
  findByIdOrFail(manager: EntityManager, id: string): Promise<IpAllowlistEntryEntity> {
    return manager.findOneByOrFail(IpAllowlistEntryEntity, { id });
  }

  /** Deletes the developer's entry; false when the developer has no entry with this id. */
  async delete(manager: EntityManager, developerId: string, id: string): Promise<boolean> {
    const result = await manager.delete(IpAllowlistEntryEntity, { id, developerId });
    return Boolean(result.affected);
  }

  /** Gives `toKeyId` a copy of every entry limited to `fromKeyId` (same ranges and labels). */
  async copyToKey(manager: EntityManager, fromKeyId: string, toKeyId: string, now: Date): Promise<void> {
    await manager.query(
      `INSERT INTO ip_allowlist_entries (developer_id, api_key_id, cidr, label, created_at)
       SELECT developer_id, $2, cidr, label, $3 FROM ip_allowlist_entries WHERE api_key_id = $1`,
      [fromKeyId, toKeyId, now],
    );
  }
}
