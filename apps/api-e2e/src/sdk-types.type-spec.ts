/**
 * Compile-time checks (run by api-e2e's `typecheck` target, not by Jest) that the SDK's hand-written
 * types say what the gateway's contracts say. The SDK may not import the contracts (it is published
 * alone, typed from the OpenAPI document), so its event map and error codes are checked here.
 */
import type { DeliveredEventDataMap, DeliveredEventName, ErrorCode } from '@gateway/contracts';
import type { DeliveredEventName as SdkEventName, ErrorCode as SdkErrorCode, EventDataMap as SdkEventDataMap } from '@gateway/sdk';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** The SDK types exactly the events a receiver can get: the catalog and `webhook.test`. */
export const sameEventNames: Same<SdkEventName, DeliveredEventName> = true;

/** The SDK's ErrorCode is the catalog's (it comes from the document's ErrorEnvelope enum). */
export const sameErrorCodes: Same<SdkErrorCode, ErrorCode> = true;

/** What the gateway sends for each event fits the type the SDK gives it; a misfit names its event here. */
type Misfits = { [E in DeliveredEventName]: DeliveredEventDataMap[E] extends SdkEventDataMap[E] ? never : E }[DeliveredEventName];
export const everyEventFits: [Misfits] extends [never] ? true : Misfits = true;
