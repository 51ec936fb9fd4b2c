/**
 * operationIds that read like an SDK's methods: `<resource>.<method>` from the controller's class
 * name and the handler's name. `PaymentsController.initialize` → `payments.initialize`,
 * `PaymentIntentsController.capture` → `paymentIntents.capture`; the developer portal's controllers
 * (`Portal…Controller`) get a `portal.` namespace: `PortalKeysController.create` → `portal.keys.create`.
 */
export function sdkOperationId(controllerKey: string, methodKey: string): string {
  const words = controllerKey.replace(/Controller$/, '').match(/[A-Z]+[a-z0-9]*/g) ?? [controllerKey];
  const [first, ...rest] = words;
  const namespace = first === 'Portal' && rest.length ? ['portal', camelCase(rest)] : [camelCase(words)];
  return [...namespace, methodKey].join('.');
}

function camelCase(words: string[]): string {
  return words.map((word, i) => (i === 0 ? word.toLowerCase() : word)).join('');
}
