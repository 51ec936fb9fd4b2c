import type { FastifyInstance } from 'fastify';
import type { SimulatorContext } from '../context';
import { accountOf } from '../http/auth';
import { ok } from '../http/envelope';
import { asBody, optionalString, requireEmail, requireString } from '../http/validation';
import { customerToWire, dedicatedAccountToWire } from '../serializers';
import { findOrCreateCustomer } from '../services/customers';
import { createDedicatedAccount } from '../services/dedicated-accounts';

/** /customer and /dedicated_account — customers and their dedicated virtual bank accounts. */
export function registerCustomerRoutes(app: FastifyInstance, ctx: SimulatorContext): void {
  app.post('/customer', async (request) => {
    const body = asBody(request.body);
    const customer = findOrCreateCustomer(ctx, accountOf(request), requireEmail(body), {
      firstName: optionalString(body, 'first_name', 100),
      lastName: optionalString(body, 'last_name', 100),
      phone: optionalString(body, 'phone', 30),
    });
    return ok('Customer created', customerToWire(customer));
  });

  app.post('/dedicated_account', async (request) => {
    const body = asBody(request.body);
    const account = accountOf(request);
    const customer = body['customer'];
    const dedicated = createDedicatedAccount(
      ctx,
      account,
      typeof customer === 'number' ? String(customer) : requireString(body, 'customer', 100),
      optionalString(body, 'preferred_bank', 50),
      {
        firstName: optionalString(body, 'first_name', 100),
        lastName: optionalString(body, 'last_name', 100),
        phone: optionalString(body, 'phone', 30),
      },
    );
    return ok('NUBAN successfully created', dedicatedAccountToWire(account, dedicated));
  });
}
