import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EntityManager, Repository } from 'typeorm';
import { OutboundMailEntity } from '../entities/outbound-mail.entity';

/** Mails queued for the SMTP server (table `outbound_mails`); a row lives until its mail is sent. */
@Injectable()
export class OutboundMailsRepository {
  constructor(@InjectRepository(OutboundMailEntity) private readonly outbox: Repository<OutboundMailEntity>) {}

  /** Queues a mail; run it in the transaction that enqueues its send job. */
  async insert(mail: OutboundMailEntity, manager: EntityManager = this.outbox.manager): Promise<void> {
    await manager.insert(OutboundMailEntity, mail);
  }

  /** The queued mail, or null once it was sent. */
  findById(id: string): Promise<OutboundMailEntity | null> {
    return this.outbox.findOneBy({ id });
  }

  /** Forgets a sent mail. */
  async delete(id: string): Promise<void> {
    await this.outbox.delete({ id });
  }
}
