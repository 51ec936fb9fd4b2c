import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, Repository } from 'typeorm';
import { DevMailEntity } from '../entities/dev-mail.entity';

/** Messages kept instead of sent when no SMTP server is configured (table `dev_mailbox`). */
@Injectable()
export class DevMailboxRepository {
  constructor(@InjectRepository(DevMailEntity) private readonly mailbox: Repository<DevMailEntity>) {}

  /** Keeps a message (in the caller's transaction when given one). */
  async insert(mail: Omit<DevMailEntity, 'id'>, manager: EntityManager = this.mailbox.manager): Promise<void> {
    await manager.insert(DevMailEntity, mail);
  }

  /** The newest `limit` messages, newest first; only those to `recipient` when given. */
  listNewest(limit: number, recipient?: string): Promise<DevMailEntity[]> {
    return this.mailbox.find({
      where: recipient === undefined ? {} : { recipient },
      order: { id: 'DESC' },
      take: limit,
    });
  }
}
