import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type DeveloperContext, newestFirst, type Page } from '@gateway/platform';
import { In, type Repository } from 'typeorm';
import { TransferRecipientEntity } from './transfer-recipient.entity';

export interface RecipientListFilter {
  limit: number;
  cursor?: string;
}

/** Saved transfer recipients; every read is a tenant's (developer and mode). */
@Injectable()
export class TransferRecipientsRepository {
  constructor(@InjectRepository(TransferRecipientEntity) private readonly recipients: Repository<TransferRecipientEntity>) {}

  /**
   * Stores the recipient unless the tenant has this bank account in this currency already; returns
   * the stored one either way (two racing requests end with one row).
   */
  async insertOrFind(recipient: TransferRecipientEntity): Promise<TransferRecipientEntity> {
    await this.recipients.createQueryBuilder().insert().into(TransferRecipientEntity).values(recipient).orIgnore().execute();
    return this.recipients.findOneByOrFail({
      developerId: recipient.developerId,
      mode: recipient.mode,
      bankCode: recipient.bankCode,
      accountNumber: recipient.accountNumber,
      currency: recipient.currency,
    });
  }

  findByAccount(ctx: DeveloperContext, bankCode: string, accountNumber: string, currency: string): Promise<TransferRecipientEntity | null> {
    return this.recipients.findOneBy({ developerId: ctx.developerId, mode: ctx.mode, bankCode, accountNumber, currency: currency as TransferRecipientEntity['currency'] });
  }

  findByCode(ctx: DeveloperContext, recipientCode: string): Promise<TransferRecipientEntity | null> {
    return this.recipients.findOneBy({ developerId: ctx.developerId, mode: ctx.mode, recipientCode });
  }

  findByCodes(ctx: DeveloperContext, recipientCodes: string[]): Promise<TransferRecipientEntity[]> {
    return recipientCodes.length ? this.recipients.findBy({ developerId: ctx.developerId, mode: ctx.mode, recipientCode: In([...new Set(recipientCodes)]) }) : Promise.resolve([]);
  }

  /** By internal id, whoever's (the transfer that names it was read for its tenant already). */
  async byIds(ids: string[]): Promise<Map<string, TransferRecipientEntity>> {
    const rows = ids.length ? await this.recipients.findBy({ id: In([...new Set(ids)]) }) : [];
    return new Map(rows.map((row) => [row.id, row]));
  }

  async list(ctx: DeveloperContext, filter: RecipientListFilter): Promise<Page<TransferRecipientEntity>> {
    const page = newestFirst.page(filter);
    const query = this.recipients.createQueryBuilder('r').where('r.developer_id = :developerId AND r.mode = :mode', ctx);
    return page.toPage(await page.applyTo(query, 'r').getMany(), (r) => r);
  }
}
