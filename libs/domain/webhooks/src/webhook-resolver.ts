import { Injectable } from '@nestjs/common';
import type { LookupAddress } from 'node:dns';
import { systemResolver } from './url-guard';

/**
 * Name resolution for webhook URLs, at registration and at connect time. A provider of its own so
 * tests can make a host resolve differently the second time (DNS rebinding) without real DNS.
 */
@Injectable()
export class WebhookResolver {
  resolve(hostname: string): Promise<LookupAddress[]> {
    return systemResolver(hostname);
  }
}
