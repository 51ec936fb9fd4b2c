import type { FastifyInstance, FastifyReply } from 'fastify';
import { CHECKOUT_CONTENT_SECURITY_POLICY } from '../checkout/html';
import {
  CARD_INPUT_NAME,
  callbackRedirectUrl,
  renderCheckoutPage,
  renderHoldResultPage,
  renderNotFoundPage,
  renderResultPage,
} from '../checkout/pages';
import type { SimulatorContext } from '../context';
import { AWAITING_CUSTOMER, authorizeHoldWithCard } from '../services/hold-checkouts';
import { payWithCard } from '../services/payments';
import { TEST_CARDS, findTestCard } from '../test-cards';

/** Form posts are tiny (one radio value); anything bigger is not from our page. */
const FORM_BODY_LIMIT_BYTES = 16 * 1024;

/**
 * The hosted checkout: the page a customer is sent to via `authorization_url`.
 * It needs no secret key — the unguessable access code is the capability,
 * exactly like Paystack's checkout link.
 */
export function registerCheckoutRoutes(app: FastifyInstance, ctx: SimulatorContext): void {
  // Browsers post forms url-encoded. Parsed here by hand so the simulator needs no extra package.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT_BYTES },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    },
  );

  app.addHook('onSend', async (_request, reply, payload) => {
    reply
      .header('content-security-policy', CHECKOUT_CONTENT_SECURITY_POLICY)
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer');
    return payload;
  });

  const html = (reply: FastifyReply, statusCode: number, page: string) =>
    reply.code(statusCode).type('text/html; charset=utf-8').send(page);

  // The authorize-only checkout (a hold, POST /preauthorization/initialize) shares the page's path and form hooks.
  const openHold = (reply: FastifyReply, accessCode: string) => {
    const found = ctx.accounts.findHoldByAccessCode(accessCode);
    if (!found) return html(reply, 404, renderNotFoundPage());
    const { account, hold } = found;
    if (hold.status !== 'pending') return html(reply, hold.status === 'released' ? 404 : 200, hold.status === 'released' ? renderNotFoundPage() : renderHoldResultPage({ hold, mode: account.domain, retryUrl: checkoutPath(accessCode) }));
    const error = hold.gatewayResponse === AWAITING_CUSTOMER ? undefined : `Your last attempt failed: ${hold.gatewayResponse}. Choose another card.`;
    return html(reply, 200, renderCheckoutPage({ transaction: hold, mode: account.domain, cards: TEST_CARDS, error, payAction: payPath(accessCode), purpose: 'authorize' }));
  };

  const authorizeHold = (reply: FastifyReply, accessCode: string, form: Record<string, unknown>) => {
    const found = ctx.accounts.findHoldByAccessCode(accessCode);
    if (!found) return html(reply, 404, renderNotFoundPage());
    const { account, hold } = found;
    if (hold.status === 'released') return html(reply, 404, renderNotFoundPage());
    const chosen = form[CARD_INPUT_NAME];
    const card = typeof chosen === 'string' ? findTestCard(chosen) : undefined;
    if (hold.status === 'pending' && !card) {
      const error = 'Choose one of the test cards below.';
      return html(reply, 400, renderCheckoutPage({ transaction: hold, mode: account.domain, cards: TEST_CARDS, error, payAction: payPath(accessCode), purpose: 'authorize' }));
    }
    if (card) authorizeHoldWithCard(ctx, account, hold, card);
    return html(reply, 200, renderHoldResultPage({ hold, mode: account.domain, retryUrl: checkoutPath(accessCode) }));
  };

  app.get<{ Params: { accessCode: string } }>('/checkout/:accessCode', async (request, reply) => {
    const found = ctx.accounts.findByAccessCode(request.params.accessCode);
    if (!found) return openHold(reply, request.params.accessCode);
    const { account, transaction } = found;
    if (transaction.status === 'success') {
      return html(reply, 200, renderResultPage({ transaction, mode: account.domain }));
    }
    // Paystack reports a transaction whose checkout is open as "ongoing".
    if (transaction.status === 'abandoned') transaction.status = 'ongoing';
    const error =
      transaction.status === 'failed'
        ? `Your last attempt failed: ${transaction.gatewayResponse ?? 'Declined'}. Choose another card.`
        : undefined;
    return html(
      reply,
      200,
      renderCheckoutPage({ transaction, mode: account.domain, cards: TEST_CARDS, error, payAction: payPath(request.params.accessCode) }),
    );
  });

  app.post<{ Params: { accessCode: string } }>('/checkout/:accessCode/pay', async (request, reply) => {
    const accessCode = request.params.accessCode;
    const found = ctx.accounts.findByAccessCode(accessCode);
    if (!found) return authorizeHold(reply, accessCode, (request.body ?? {}) as Record<string, unknown>);
    const { account, transaction } = found;

    // Already paid: never charge twice, just send the customer on (again).
    if (transaction.status !== 'success') {
      const form = (request.body ?? {}) as Record<string, unknown>;
      const chosen = form[CARD_INPUT_NAME];
      const card = typeof chosen === 'string' ? findTestCard(chosen) : undefined;
      if (!card) {
        const error = 'Choose one of the test cards below.';
        return html(
          reply,
          400,
          renderCheckoutPage({ transaction, mode: account.domain, cards: TEST_CARDS, error, payAction: payPath(accessCode) }),
        );
      }
      payWithCard(ctx, account, transaction, card);
    }

    if (transaction.callbackUrl) {
      return reply.code(303).header('location', callbackRedirectUrl(transaction)).send();
    }
    return html(
      reply,
      200,
      renderResultPage({ transaction, mode: account.domain, retryUrl: checkoutPath(accessCode) }),
    );
  });
}

function checkoutPath(accessCode: string): string {
  return `/checkout/${encodeURIComponent(accessCode)}`;
}

function payPath(accessCode: string): string {
  return `/checkout/${encodeURIComponent(accessCode)}/pay`;
}
