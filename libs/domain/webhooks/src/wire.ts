// What a delivery puts on the wire — its body and signed headers — with nothing of the database or
// Nest behind it: the sandbox CLI's `listen` signs what it forwards exactly as the dispatcher does,
// and imports this alone (`@gateway/domain/webhooks/wire`) rather than the whole capability.
export { newSigningSecret, signPayload, signatureHeader, verifySignatureHeader } from './signature';
export { deliveryRequest, type DeliveryRequest } from './delivery-request';
export { webhookBody, type EventForDelivery } from './webhook-payload';
