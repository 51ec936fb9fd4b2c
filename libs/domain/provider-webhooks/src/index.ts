export { ProviderWebhooksModule } from './provider-webhooks.module';
export { ProviderWebhooksService } from './provider-webhooks.service';
