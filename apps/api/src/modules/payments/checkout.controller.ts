import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { PaymentsService } from '@gateway/domain/payments';
import type { FastifyReply } from 'fastify';
import { Public } from '../../http/auth/authenticated.decorator';

/**
 * `authorization_url` points here (`/checkout/{reference}`), not at the provider, so no provider id
 * reaches the merchant's API responses. The customer's browser is sent on to the hosted checkout.
 */
@ApiExcludeController()
@Controller('checkout')
export class CheckoutController {
  constructor(private readonly payments: PaymentsService) {}

  @Get(':reference')
  @Public()
  async open(@Param('reference') reference: string, @Res() reply: FastifyReply): Promise<void> {
    const destination = await this.payments.checkoutDestination(reference);
    if (destination) {
      await reply.header('cache-control', 'no-store').redirect(destination, 302);
      return;
    }
    await reply
      .status(404)
      .header('content-type', 'text/html; charset=utf-8')
      .send('<!doctype html><title>Payment unavailable</title><p>This payment link is not open: it was paid, has expired, or does not exist.</p>');
  }
}
