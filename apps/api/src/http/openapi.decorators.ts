import { applyDecorators, type Type } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import type { ReferenceObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ERROR_HTTP_STATUS, type ErrorCode, ListMeta } from '@gateway/contracts';
import type { ListResponse } from './list-response';

type Schema = SchemaObject | ReferenceObject;

/** A method decorator that only fits a handler whose result is `R` (or a promise of it). */
export type ContractDecorator<R> = (target: object, key: string | symbol, descriptor: { value?: (...args: never[]) => R | Promise<R> }) => void;

interface ContractOptions {
  /** The request body's DTO class. */
  body?: Type<unknown>;
  /** The success status; 200 unless given. */
  status?: number;
  /** The error codes the route answers with (their statuses come from the error catalog). */
  errors?: ErrorCode[];
}

/**
 * Documents a route from the wire DTOs: its request body, its success answer in the envelope
 * (`{success: true, data}`; lists add `meta`) and its error codes. The DTO schemas themselves come
 * from the generated plugin metadata (openapi-metadata/). The declared response type must match
 * the handler's return type, so the document cannot drift from the code:
 *  - `response: PaymentResponse` → `data` is one PaymentResponse;
 *  - `response: [FeeOverrideResponse]` → `data` is an array, without pagination;
 *  - `list: PaymentResponse` → a cursor-paginated list (the handler returns `ListResponse<…>`);
 *  - `feed: EventResponse` → a feed page, oldest first (also `ListResponse<…>`; `meta.next_cursor` is `?after=`);
 *  - `status: 204` without a response → no body.
 */
export function ApiContract<R>(options: ContractOptions & { response: Type<R> }): ContractDecorator<R>;
export function ApiContract<R>(options: ContractOptions & { response: [Type<R>] }): ContractDecorator<R[]>;
export function ApiContract<R>(options: ContractOptions & { list: Type<R> }): ContractDecorator<ListResponse<R>>;
export function ApiContract<R>(options: ContractOptions & { feed: Type<R> }): ContractDecorator<ListResponse<R>>;
export function ApiContract(options: ContractOptions & { status: 204 }): ContractDecorator<void>;
export function ApiContract(
  options: ContractOptions & { response?: Type<unknown> | [Type<unknown>]; list?: Type<unknown>; feed?: Type<unknown> },
): ContractDecorator<unknown> {
  const decorators = [];
  if (options.body) decorators.push(ApiExtraModels(options.body), ApiBody({ type: options.body }));
  decorators.push(options.feed ? feedResponse(options.feed) : successResponse(options.status ?? 200, options.response, options.list));
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of options.errors ?? []) byStatus.set(ERROR_HTTP_STATUS[code], [...(byStatus.get(ERROR_HTTP_STATUS[code]) ?? []), code]);
  for (const [status, codes] of byStatus) {
    // The body is the error envelope, added to every error answer by setupOpenApi.
    decorators.push(ApiResponse({ status, description: `Error envelope with code ${codes.map((c) => `\`${c}\``).join(', ')}` }));
  }
  const apply = applyDecorators(...decorators);
  return (target, key, descriptor) => apply(target, key, descriptor as PropertyDescriptor);
}

function successResponse(status: number, response: Type<unknown> | [Type<unknown>] | undefined, list: Type<unknown> | undefined): MethodDecorator {
  if (list) {
    return applyDecorators(
      ApiExtraModels(list, ListMeta),
      ApiResponse({ status, description: 'A page of the list, newest first; `meta.next_cursor` fetches the next one.', schema: envelope({ type: 'array', items: ref(list) }, true) }),
    );
  }
  if (!response) return ApiResponse({ status, description: 'Done; no body.' });
  const [model, data]: [Type<unknown>, Schema] = Array.isArray(response) ? [response[0], { type: 'array', items: ref(response[0]) }] : [response, ref(response)];
  return applyDecorators(ApiExtraModels(model), ApiResponse({ status, description: 'Success', schema: envelope(data, false) }));
}

function feedResponse(item: Type<unknown>): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(item, ListMeta),
    ApiResponse({
      status: 200,
      description: 'A page of the feed, oldest first (empty when a wait ended with nothing new); pass `meta.next_cursor` (always set) as `?after=` to continue.',
      schema: envelope({ type: 'array', items: ref(item) }, true),
    }),
  );
}

function ref(model: Type<unknown>): Schema {
  return { $ref: getSchemaPath(model) };
}

function envelope(data: Schema, list: boolean): SchemaObject {
  return {
    type: 'object',
    required: list ? ['success', 'data', 'meta'] : ['success', 'data'],
    properties: {
      success: { type: 'boolean', enum: [true] },
      data,
      ...(list ? { meta: ref(ListMeta) } : {}),
    },
  };
}
