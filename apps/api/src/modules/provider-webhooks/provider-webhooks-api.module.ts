import { Module } from '@nestjs/common';
import { ProviderWebhooksModule } from '@gateway/domain/provider-webhooks';
import { ProviderWebhooksController } from './provider-webhooks.controller';

@Module({ imports: [ProviderWebhooksModule], controllers: [ProviderWebhooksController] })
export class ProviderWebhooksApiModule {}
