import { sdkOperationId } from './openapi-operation-ids';

describe('sdkOperationId', () => {
  it.each([
    ['PaymentsController', 'initialize', 'payments.initialize'],
    ['RefundsController', 'create', 'refunds.create'],
    ['PaymentIntentsController', 'capture', 'paymentIntents.capture'],
    ['BulkPaymentsController', 'get', 'bulkPayments.get'],
    ['PortalKeysController', 'create', 'portal.keys.create'],
    ['PortalIpAllowlistController', 'add', 'portal.ipAllowlist.add'],
    ['PortalRequestLogsController', 'search', 'portal.requestLogs.search'],
    ['HealthController', 'ready', 'health.ready'],
    ['PortalMeController', 'get', 'portal.me.get'],
  ])('names %s.%s %s', (controller, method, expected) => {
    expect(sdkOperationId(controller, method)).toBe(expected);
  });
});
