import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ERROR_HTTP_STATUS } from '@gateway/contracts';
import { InvoicePaymentsService } from '@gateway/domain/invoices';
import { DomainError } from '@gateway/platform';
import type { FastifyReply } from 'fastify';
import { randomBytes } from 'node:crypto';
import { Public } from '../../http/auth/authenticated.decorator';
import { pageSecurityHeaders, renderClosedPage, renderInvoicePage } from './invoice-link.page';

/**
 * An invoice's payment link (`/checkout/invoices/{token}`): a public page for the customer's
 * browser — no API key; the unguessable token in the URL is the only way to it, never the
 * reference. It shows the invoice and a form whose answer (`…/pay?amount=`) starts a hosted
 * checkout of the invoice's developer and mode and redirects to it. A GET, like every route under
 * /checkout (the customer's browser follows links and redirects here): starting a checkout only
 * creates a pending payment; nothing is charged until the customer pays on the provider's page.
 */
@ApiExcludeController()
@Controller('checkout/invoices')
export class InvoiceLinkController {
  constructor(private readonly links: InvoicePaymentsService) {}

  @Get(':token')
  @Public()
  async show(@Param('token') token: string, @Res() reply: FastifyReply): Promise<void> {
    const nonce = randomBytes(16).toString('base64');
    try {
      const view = await this.links.linkView(token);
      await reply.status(200).headers(pageSecurityHeaders(nonce)).send(renderInvoicePage(view, payPath(token), nonce));
    } catch (error) {
      await this.refuse(reply, error, nonce);
    }
  }

  @Get(':token/pay')
  @Public()
  async pay(@Param('token') token: string, @Query('amount') amount: unknown, @Res() reply: FastifyReply): Promise<void> {
    const nonce = randomBytes(16).toString('base64');
    try {
      const { authorizationUrl } = await this.links.startCheckout(token, typeof amount === 'string' ? amount : undefined);
      await reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').redirect(authorizationUrl, 303);
    } catch (error) {
      if (!(error instanceof DomainError) || error.code === 'invoice_not_found') return this.refuse(reply, error, nonce);
      // A refused amount (or a provider failure): the invoice again, with why, so the customer can correct it.
      const view = await this.links.linkView(token).catch(() => null);
      if (!view) return this.refuse(reply, error, nonce);
      const reason = Object.values(error.fieldErrors ?? {}).flat()[0] ?? error.message;
      await reply.status(ERROR_HTTP_STATUS[error.code]).headers(pageSecurityHeaders(nonce)).send(renderInvoicePage(view, payPath(token), nonce, reason));
    }
  }

  private async refuse(reply: FastifyReply, error: unknown, nonce: string): Promise<void> {
    if (!(error instanceof DomainError) || error.code !== 'invoice_not_found') throw error;
    await reply.status(404).headers(pageSecurityHeaders(nonce)).send(renderClosedPage(nonce));
  }
}

/** Relative to the page (`/checkout/invoices/{token}` → `{token}/pay`), so it works behind any public base URL. */
function payPath(token: string): string {
  return `${encodeURIComponent(token)}/pay`;
}
