import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type Amount, Clock, type Currency, DomainError, notifyAccessChanged } from '@gateway/platform';
import { QueryFailedError, Repository } from 'typeorm';
import { DeveloperEntity } from './developer.entity';
import { DeveloperFeeOverrideEntity } from './developer-fee-override.entity';

export interface NewDeveloper {
  email: string;
  name: string;
  emailVerified?: boolean;
  identityVerified?: boolean;
}

/** Developer accounts (tenants). Provisioned by administrators and the operator CLI. */
@Injectable()
export class DevelopersService {
  constructor(
    @InjectRepository(DeveloperEntity) private readonly developers: Repository<DeveloperEntity>,
    @InjectRepository(DeveloperFeeOverrideEntity) private readonly fees: Repository<DeveloperFeeOverrideEntity>,
    private readonly clock: Clock,
  ) {}

  /** @throws conflict when the e-mail already has an account. */
  async create(input: NewDeveloper): Promise<DeveloperEntity> {
    const now = this.clock.now();
    try {
      return await this.developers.save(
        this.developers.create({
          email: input.email.trim().toLowerCase(),
          name: input.name.trim(),
          emailVerifiedAt: input.emailVerified ? now : null,
          identityVerifiedAt: input.identityVerified ? now : null,
        }),
      );
    } catch (error) {
      if (error instanceof QueryFailedError && (error.driverError as { code?: string }).code === '23505') {
        throw new DomainError('conflict', `A developer with e-mail ${input.email} already exists.`);
      }
      throw error;
    }
  }

  /** @throws developer_not_found */
  async get(id: string): Promise<DeveloperEntity> {
    const developer = isUuid(id) ? await this.developers.findOneBy({ id }) : null;
    if (!developer) throw new DomainError('developer_not_found', 'No such developer.');
    return developer;
  }

  /** Finds by id or e-mail (operators type either). @throws developer_not_found */
  async find(idOrEmail: string): Promise<DeveloperEntity> {
    if (isUuid(idOrEmail)) return this.get(idOrEmail);
    const developer = await this.developers
      .createQueryBuilder('d')
      .where('lower(d.email) = lower(:email)', { email: idOrEmail.trim() })
      .getOne();
    if (!developer) throw new DomainError('developer_not_found', 'No such developer.');
    return developer;
  }

  /** Completes identity verification, which enables live mode. Idempotent. */
  async verifyIdentity(id: string): Promise<DeveloperEntity> {
    const developer = await this.get(id);
    if (!developer.identityVerifiedAt) {
      developer.identityVerifiedAt = this.clock.now();
      await this.saveAndAnnounce(developer);
    }
    return developer;
  }

  async verifyEmail(id: string): Promise<DeveloperEntity> {
    const developer = await this.get(id);
    if (!developer.emailVerifiedAt) {
      developer.emailVerifiedAt = this.clock.now();
      await this.saveAndAnnounce(developer);
    }
    return developer;
  }

  /** Verification decides which modes a developer's keys may use: API instances must know at once. */
  private async saveAndAnnounce(developer: DeveloperEntity): Promise<void> {
    await this.developers.manager.transaction(async (m) => {
      await m.save(developer);
      await notifyAccessChanged(m, `developer:${developer.id}`);
    });
  }

  /** Sets the platform fee this developer pays per successful transaction in `currency` (0 allowed). */
  async setFeeOverride(id: string, currency: Currency, amount: Amount): Promise<void> {
    if (amount.isNegative()) throw new DomainError('validation_error', 'The fee cannot be negative.', { amount: ['must not be negative'] });
    await this.get(id);
    await this.fees.upsert({ developerId: id, currency, amount }, ['developerId', 'currency']);
  }

  async feeOverride(id: string, currency: Currency): Promise<Amount | null> {
    const row = await this.fees.findOneBy({ developerId: id, currency });
    return row?.amount ?? null;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function isUuid(value: string): boolean {
  return UUID.test(value);
}
