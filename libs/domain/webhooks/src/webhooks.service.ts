import { Inject, Injectable } from '@nestjs/common';
import { type EventName, REQUEST_TRACE_MAX_EVENTS, TEST_EVENT_NAME, type TestEventData, type WebhookVersion } from '@gateway/contracts';
import { APP_CONFIG, type AppConfig, Clock, type DeveloperContext, DomainError, Encryptor, inTransaction, type Page, timeOrderedHex, validationError } from '@gateway/platform';
import { DataSource, type EntityManager } from 'typeorm';
import { EventsRepository } from './events.repository';
import { newEventId } from './events.service';
import { groupRequestEvents, type RequestEvents } from './request-events';
import { newSigningSecret } from './signature';
import { urlAddressProblem, urlFormProblem, urlPolicy } from './url-guard';
import type { WebhookDeliveryLogEntity, WebhookEndpointEntity } from './webhook.entities';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDeliveryLogsRepository } from './webhook-delivery-logs.repository';
import { WebhookDispatcher } from './webhook-dispatcher.service';
import { EMPTY_WINDOW, WebhookEndpointHealthRepository } from './webhook-endpoint-health.repository';
import { healthWindowStart, viewOf, type WebhookEndpointView } from './webhook-endpoint-view';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
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

/** An endpoint as shown, with the secret only where it was just issued. */
export type EndpointWithSecret = WebhookEndpointView;

/** Merchants' webhook endpoints, their delivery logs, manual retries and test deliveries. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly logs: WebhookDeliveryLogsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly health: WebhookEndpointHealthRepository,
    private readonly events: EventsRepository,
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
    const reference = `whk_${timeOrderedHex(12)}`;
    const secret = newSigningSecret();
    const endpoint = await this.endpoints.insert({
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
    return { endpoint, window: EMPTY_WINDOW, secret };
  }

  /** @throws webhook_not_found */
  async get(ctx: DeveloperContext, reference: string): Promise<WebhookEndpointEntity> {
    const endpoint = await this.endpoints.findActive(ctx, reference);
    if (!endpoint) throw new DomainError('webhook_not_found', 'No such webhook endpoint.');
    return endpoint;
  }

  /** The endpoint with its health. @throws webhook_not_found */
  async view(ctx: DeveloperContext, reference: string): Promise<WebhookEndpointView> {
    const [view] = await this.viewsOf([await this.get(ctx, reference)]);
    return view;
  }

  /** Endpoints with their health, newest first. @throws validation_error (a cursor this list did not issue) */
  async list(ctx: DeveloperContext, filter: { limit: number; cursor?: string }): Promise<Page<WebhookEndpointView>> {
    const page = await this.endpoints.list(ctx, filter);
    return { ...page, items: await this.viewsOf(page.items) };
  }

  /**
   * Each endpoint with its attempts over the health window: one read of day counts for all of them,
   * in `manager`'s transaction when given.
   */
  async viewsOf(endpoints: WebhookEndpointEntity[], manager?: EntityManager): Promise<WebhookEndpointView[]> {
    const windows = await this.health.windowTotals(
      endpoints.map((endpoint) => endpoint.id),
      healthWindowStart(this.clock.now()),
      manager,
    );
    return endpoints.map((endpoint) => viewOf(endpoint, windows));
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
    await this.endpoints.saveSettings(endpoint.id, {
      url: endpoint.url,
      events: endpoint.events,
      webhookVersion: endpoint.webhookVersion,
      secretCiphertext: endpoint.secretCiphertext,
      previousSecretCiphertext: endpoint.previousSecretCiphertext,
      previousSecretExpiresAt: endpoint.previousSecretExpiresAt,
      updatedAt: endpoint.updatedAt,
    });
    return { ...(await this.view(ctx, reference)), ...(secret ? { secret } : {}) };
  }

  /**
   * Stops deliveries to the endpoint; its logs stay readable to operators. Its deliveries are
   * written before its row, the lock order of every transaction touching both (see WebhookRecoveryService).
   * @throws webhook_not_found
   */
  async delete(ctx: DeveloperContext, reference: string): Promise<void> {
    const endpoint = await this.get(ctx, reference);
    const now = this.clock.now();
    await inTransaction(this.dataSource, async (m) => {
      await this.deliveries.moveAllOfEndpoint(m, endpoint.id, 'fail', now);
      await this.endpoints.markDeleted(m, endpoint.id, now);
    });
  }

  /** Every attempt to this endpoint, newest first. @throws webhook_not_found, validation_error (cursor) */
  async listLogs(ctx: DeveloperContext, reference: string, filter: { limit: number; cursor?: string }): Promise<Page<{ log: WebhookDeliveryLogEntity; endpoint: WebhookEndpointEntity }>> {
    const endpoint = await this.get(ctx, reference);
    const page = await this.logs.listForEndpoint(ctx, endpoint.id, filter);
    return { ...page, items: page.items.map((log) => ({ log, endpoint })) };
  }

  /**
   * The account's recent failed attempts across its endpoints (not deleted ones), newest first, each
   * with its endpoint: what the portal's dashboard points at, to retry from the endpoint's log.
   * @throws validation_error (cursor)
   */
  async listFailedDeliveries(ctx: DeveloperContext, filter: { limit: number; cursor?: string }): Promise<Page<{ log: WebhookDeliveryLogEntity; endpoint: WebhookEndpointEntity }>> {
    const page = await this.logs.listFailedForAccount(ctx, filter);
    const endpointIds = [...new Set(page.items.map((log) => log.endpointId))];
    const endpoints = new Map<string, WebhookEndpointEntity>();
    for (const endpoint of await Promise.all(endpointIds.map((id) => this.endpoints.findById(ctx, id)))) if (endpoint) endpoints.set(endpoint.id, endpoint);
    const items = page.items.flatMap((log) => {
      const endpoint = endpoints.get(log.endpointId);
      return endpoint ? [{ log, endpoint }] : [];
    });
    return { ...page, items };
  }

  /**
   * The events the API request `requestId` (its X-Request-Id) emitted in this account and mode,
   * oldest first and at most REQUEST_TRACE_MAX_EVENTS, each with its delivery to every endpoint
   * (deleted ones too) and every attempt of each delivery: a request's trace. Empty for a request
   * that emitted nothing, or that another account or the other mode made.
   */
  async eventsForRequest(ctx: DeveloperContext, requestId: string): Promise<RequestEvents> {
    const events = await this.events.findByRequest(ctx, requestId, REQUEST_TRACE_MAX_EVENTS + 1);
    const truncated = events.length > REQUEST_TRACE_MAX_EVENTS;
    const listed = events.slice(0, REQUEST_TRACE_MAX_EVENTS);
    const deliveries = await this.deliveries.listForEvents(ctx, listed.map((event) => event.id));
    const attempts = await this.logs.listForDeliveries(ctx, deliveries.map((delivery) => delivery.id));
    return { events: groupRequestEvents(listed, deliveries, attempts), truncated };
  }

  /**
   * A new attempt of the logged delivery, same event id, now.
   * @throws webhook_log_not_found, conflict (an attempt of that delivery is in flight)
   */
  async retry(ctx: DeveloperContext, logReference: string): Promise<WebhookDeliveryLogEntity> {
    const log = await this.logs.findByReference(ctx, logReference);
    const endpoint = log && (await this.endpoints.findById(ctx, log.endpointId));
    if (!log || !endpoint || endpoint.deletedAt) throw new DomainError('webhook_log_not_found', 'No such webhook delivery log.');
    return this.dispatcher.attemptNow({ id: log.deliveryId }, endpoint, 'manual');
  }

  /** Sends a signed `webhook.test` event to the endpoint now and logs the attempt. @throws webhook_not_found */
  async sendTest(ctx: DeveloperContext, reference: string): Promise<WebhookDeliveryLogEntity> {
    const endpoint = await this.get(ctx, reference);
    const now = this.clock.now();
    const eventId = newEventId();
    const data: TestEventData = { webhook_id: endpoint.reference, message: 'This is a test delivery from the gateway.' };
    // Not through EventsService.emit: a test event goes to this endpoint only, whatever it subscribes to.
    const delivery = await inTransaction(this.dataSource, async (m) => {
      await this.events.insert(m, { id: eventId, developerId: ctx.developerId, mode: ctx.mode, name: TEST_EVENT_NAME, data: { ...data }, createdAt: now }, ctx.requestId);
      return this.deliveries.createUnscheduled(m, ctx, endpoint.id, eventId, now);
    });
    return this.dispatcher.attemptNow(delivery, endpoint, 'test');
  }

  private async checkUrl(ctx: DeveloperContext, url: string): Promise<void> {
    const policy = urlPolicy(ctx.mode, this.config.webhooks);
    const problem = urlFormProblem(url, policy) ?? (await urlAddressProblem(url, policy, (hostname) => this.resolver.resolve(hostname)));
    if (problem) throw validationError('url', `url ${problem}`);
  }
}
