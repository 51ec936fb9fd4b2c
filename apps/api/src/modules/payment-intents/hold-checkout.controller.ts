import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { PaymentIntentAuthorizationService } from '@gateway/domain/payment-intents';
import type { FastifyReply } from 'fastify';
import { Public } from '../../http/auth/authenticated.decorator';

/**
 * A `requires_action` intent's `authorization_url` points here (`/checkout/holds/{reference}`),
 * not at the provider, so no provider id reaches the merchant: the customer's browser is sent on
 * to the provider's authorize-only checkout, as payments' `/checkout/{reference}` does.
 */
@ApiExcludeController()
@Controller('checkout/holds')
export class HoldCheckoutController {
  constructor(private readonly authorizations: PaymentIntentAuthorizationService) {}

  @Get(':reference')
  @Public()
  async open(@Param('reference') reference: string, @Res() reply: FastifyReply): Promise<void> {
    const destination = await this.authorizations.checkoutDestination(reference);
    if (destination) {
      await reply.header('cache-control', 'no-store').redirect(destination, 302);
      return;
    }
    await reply
      .status(404)
      .header('content-type', 'text/html; charset=utf-8')
      .send('<!doctype html><title>Authorization unavailable</title><p>This authorization link is not open: it was used, has expired, or does not exist.</p>');
  }
}
