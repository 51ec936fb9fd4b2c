/**
 * @gateway/provider — the PaymentProvider port and its Paystack-wire HTTP adapter.
 * See docs/provider-adapter.md.
 */
export {
  PROVIDER_CAPABILITIES,
  PAYSTACK_RULES,
  ProviderCapabilities,
  SIMULATOR_RULES,
  capabilitiesFor,
  paystackCapabilities,
  simulatorCapabilities,
  type CapabilityRules,
  type ProviderCapability,
} from './capabilities';
export { PaymentProvider } from './payment-provider';
export { PaystackHttpProvider, type PaystackHttpProviderOptions } from './paystack/paystack-http.provider';
export { ProviderModule, paymentProviderFromConfig } from './provider.module';
export { ProviderRejectedError } from './provider-rejected.error';
export { estimateProviderFee, PUBLISHED_PROVIDER_FEES } from './published-fees';
export * from './provider.types';
