import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type EventName, TEST_EVENT_NAME, type TestEventData, type WebhookVersion } from '@gateway/contracts';
import { newEventId } from '@gateway/domain/events';
import { APP_CONFIG, type AppConfig, Clock, decodeCursor, type DeveloperContext, DomainError, Encryptor, inTransaction, type Page, toPage, validationError } from '@gateway/platform';
import { randomBytes } from 'node:crypto';
import { DataSource, IsNull, Repository } from 'typeorm';
import { newSigningSecret } from './signature';
import { moveEndpointDeliveries } from './delivery-status';
import { urlAddressProblem, urlFormProblem } from './url-guard';
import { WebhookDeliveryEntity, WebhookDeliveryLogEntity, WebhookEndpointEntity } from './webhook.entities';
import { WebhookDispatcher } from './webhook-dispatcher.service';
import { WebhookResolver } from './webhook-resolver';

export interface NewWebhook {
  url: string;
  events: EventName[];
  webhookVersion: WebhookVersion;
}

export interface WebhookChanges {
  url?: string;
  events?: EventName[];
  webhookVersion?: WebhookVersion;
  rotateSecret?: boolean;
}

/** An endpoint together with the secret, returned only where it was just issued. */
export interface EndpointWithSecret {
  endpoint: WebhookEndpointEntity;
  secret?: string;
}

/** Merchants' webhook endpoints, their delivery logs, manual retries and test deliveries. */
@Injectable()
export class WebhooksService {
  constructor(
    @InjectRepository(WebhookEndpointEntity) private readonly endpoints: Repository<WebhookEndpointEntity>,
    @InjectRepository(WebhookDeliveryLogEntity) private readonly logs: Repository<WebhookDeliveryLogEntity>,
    private readonly dataSource: DataSource,
    private readonly dispatcher: WebhookDispatcher,
    private readonly resolver: WebhookResolver,
    private readonly encryptor: Encryptor,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** @throws validation_error (URL refused: scheme, private address, unresolvable host) */
  async create(ctx: DeveloperContext, input: NewWebhook): Promise<EndpointWithSecret> {
    await this.checkUrl(ctx, input.url);
    const now = this.clock.now();
    const reference = `whk_${randomBytes(12).toString('hex')}`;
    const secret = newSigningSecret();
    const endpoint = await this.endpoints.save({
      reference,
      developerId: ctx.developerId,
      mode: ctx.mode,
      url: input.url,
      events: [...new Set(input.events)],
      webhookVersion: input.webhookVersion,
      secretCiphertext: this.encryptor.encrypt(secret, reference),
      previousSecretCiphertext: null,
      previousSecretExpiresAt: null,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    });
    return { endpoint, secret };
  }

  /** @throws webhook_not_found */
  async get(ctx: DeveloperContext, reference: string): Promise<WebhookEndpointEntity> {
    const endpoint = await this.endpoints.findOneBy({ reference, developerId: ctx.developerId, mode: ctx.mode, deletedAt: IsNull() });
    if (!endpoint) throw new DomainError('webhook_not_found', 'No such webhook endpoint.');
    return endpoint;
  }

  async list(ctx: DeveloperContext, filter: { limit: number; cursor?: string }): Promise<Page<WebhookEndpointEntity>> {
    const query = this.endpoints
      .createQueryBuilder('w')
      .where('w.developer_id = :developerId AND w.mode = :mode AND w.deleted_at IS NULL', ctx)
      .orderBy('w.created_at', 'DESC')
      .addOrderBy('w.id', 'DESC')
      .limit(filter.limit + 1);
    if (filter.cursor) query.andWhere('(w.created_at, w.id) < (:createdAt, :id)', decodeCursor(filter.cursor));
    return toPage(await query.getMany(), filter.limit, (w) => w);
  }

  /**
   * Changes the endpoint; `rotateSecret` issues a new secret (returned once) while the previous one
   * keeps signing for WEBHOOK_SECRET_ROTATION_GRACE_HOURS.
   * @throws webhook_not_found, validation_error
   */
  async update(ctx: DeveloperContext, reference: string, changes: WebhookChanges): Promise<EndpointWithSecret> {
    const endpoint = await this.get(ctx, reference);
    if (changes.url !== undefined) await this.checkUrl(ctx, changes.url);
    const now = this.clock.now();
    let secret: string | undefined;
    if (changes.rotateSecret) {
      secret = newSigningSecret();
      endpoint.previousSecretCiphertext = endpoint.secretCiphertext;
      endpoint.previousSecretExpiresAt = new Date(now.getTime() + this.config.webhooks.secretRotationGraceHours * 3_600_000);
      endpoint.secretCiphertext = this.encryptor.encrypt(secret, endpoint.reference);
    }
    if (changes.url !== undefined) endpoint.url = changes.url;
    if (changes.events !== undefined) endpoint.events = [...new Set(changes.events)];
    if (changes.webhookVersion !== undefined) endpoint.webhookVersion = changes.webhookVersion;
    endpoint.updatedAt = now;
    return { endpoint: await this.endpoints.save(endpoint), secret };
  }

  /** Stops deliveries to the endpoint; its logs stay readable to operators. @throws webhook_not_found */
  async delete(ctx: DeveloperContext, reference: string): Promise<void> {
    const endpoint = await this.get(ctx, reference);
    await inTransaction(this.dataSource, async (m) => {
      await m.update(WebhookEndpointEntity, { id: endpoint.id }, { deletedAt: this.clock.now() });
      await moveEndpointDeliveries(m, endpoint.id, 'fail', this.clock.now());
    });
  }

  /** Every attempt to this endpoint, newest first. @throws webhook_not_found */
  async listLogs(ctx: DeveloperContext, reference: string, filter: { limit: number; cursor?: string }): Promise<Page<{ log: WebhookDeliveryLogEntity; endpoint: WebhookEndpointEntity }>> {
    const endpoint = await this.get(ctx, reference);
    const query = this.logs
      .createQueryBuilder('l')
      .where('l.endpoint_id = :endpointId AND l.developer_id = :developerId AND l.mode = :mode', { endpointId: endpoint.id, ...ctx })
      .orderBy('l.created_at', 'DESC')
      .addOrderBy('l.id', 'DESC')
      .limit(filter.limit + 1);
    if (filter.cursor) query.andWhere('(l.created_at, l.id) < (:createdAt, :id)', decodeCursor(filter.cursor));
    return toPage(await query.getMany(), filter.limit, (log) => ({ log, endpoint }));
  }

  /**
   * A new attempt of the logged delivery, same event id, now.
   * @throws webhook_log_not_found, conflict (an attempt of that delivery is in flight)
   */
  async retry(ctx: DeveloperContext, logReference: string): Promise<WebhookDeliveryLogEntity> {
    const log = await this.logs.findOneBy({ reference: logReference, developerId: ctx.developerId, mode: ctx.mode });
    const endpoint = log && (await this.endpoints.findOneBy({ id: log.endpointId, deletedAt: IsNull() }));
    if (!log || !endpoint) throw new DomainError('webhook_log_not_found', 'No such webhook delivery log.');
    return this.dispatcher.attemptNow({ id: log.deliveryId }, endpoint, 'manual');
  }

  /** Sends a signed `webhook.test` event to the endpoint now and logs the attempt. @throws webhook_not_found */
  async sendTest(ctx: DeveloperContext, reference: string): Promise<WebhookDeliveryLogEntity> {
    const endpoint = await this.get(ctx, reference);
    const now = this.clock.now();
    const eventId = newEventId();
    const delivery = await inTransaction(this.dataSource, async (m) => {
      await m.query(`INSERT INTO events (id, developer_id, mode, name, data, created_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
        eventId,
        ctx.developerId,
        ctx.mode,
        TEST_EVENT_NAME,
        JSON.stringify({ webhook_id: endpoint.reference, message: 'This is a test delivery from the gateway.' } satisfies TestEventData),
        now,
      ]);
      return m.getRepository(WebhookDeliveryEntity).save({
        developerId: ctx.developerId,
        mode: ctx.mode,
        endpointId: endpoint.id,
        eventId,
        status: 'pending',
        attempts: 0,
        // Never picked up by the sweeper: a test delivery is attempted once, here.
        nextAttemptAt: new Date('9999-01-01T00:00:00Z'),
        leaseUntil: null,
        createdAt: now,
        completedAt: null,
      });
    });
    return this.dispatcher.attemptNow(delivery, endpoint, 'test');
  }

  private async checkUrl(ctx: DeveloperContext, url: string): Promise<void> {
    const policy = { mode: ctx.mode, trustedHosts: this.config.webhooks.trustedHosts };
    const problem = urlFormProblem(url, policy) ?? (await urlAddressProblem(url, policy, (hostname) => this.resolver.resolve(hostname)));
    if (problem) throw validationError('url', `url ${problem}`);
  }
}
