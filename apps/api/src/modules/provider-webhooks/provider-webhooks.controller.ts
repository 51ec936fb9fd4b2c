import { Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ProviderWebhooksService } from '@gateway/domain/provider-webhooks';
import type { FastifyRequest } from 'fastify';
import { Public } from '../../http/auth/authenticated.decorator';

/** Where the provider delivers its callbacks (outside the /api/v1 prefix; the body is kept raw). */
export const PROVIDER_WEBHOOKS_PATH = 'api/provider/webhooks';

/** The upstream provider's signed callbacks (HMAC-SHA512 of the raw body in `x-paystack-signature`). */
@ApiExcludeController()
@Controller(PROVIDER_WEBHOOKS_PATH)
export class ProviderWebhooksController {
  constructor(private readonly webhooks: ProviderWebhooksService) {}

  @Post()
  @HttpCode(200)
  @Public()
  async receive(@Req() request: FastifyRequest, @Headers('x-paystack-signature') signature: string | undefined): Promise<{ received: true }> {
    // The callback acts for no tenant: what it changes, in any tenant's books, records its id.
    await this.webhooks.receive(request.rawBody ?? '', signature, { requestId: request.id });
    return { received: true };
  }
}
