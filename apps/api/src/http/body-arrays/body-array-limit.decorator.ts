import { SetMetadata } from '@nestjs/common';
import type { AppConfig } from '@gateway/platform';

export const BODY_ARRAY_LIMITS = 'gateway:body-array-limits';

/** Per route: body property → its item limit from the configuration. */
export type BodyArrayLimits = Readonly<Record<string, (config: AppConfig) => number>>;

/**
 * Lowers the item limit of a top-level body array for this route to a configured value (e.g.
 * `items` of a bulk request to PAYMENT_BULK_MAX_ITEMS), checked with the DTO's own limits before
 * any item is looked at. It never raises the DTO's `@ArrayMaxSize`.
 */
export const BodyArrayLimit = (limits: BodyArrayLimits): MethodDecorator => SetMetadata(BODY_ARRAY_LIMITS, limits);
