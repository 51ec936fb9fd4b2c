import type { Client, ClientPathsWithMethod, MaybeOptionalInit, MethodResponse } from 'openapi-fetch';
import type { components, paths } from './generated/schema.js';

/*
 * Types derived from the generated schema (src/generated/schema.ts): paths are relative to
 * /api/v1, bodies and answers are the API's DTOs, so a call that does not fit the API does not
 * compile.
 */

export type Schemas = components['schemas'];

/** Every error code of the gateway's catalog (the `code` of an error answer). */
export type ErrorCode = Schemas['ErrorEnvelope']['code'];

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export type ApiClient = Client<paths>;

/** The paths that answer `method`. */
export type PathsWith<M extends HttpMethod> = ClientPathsWithMethod<ApiClient, M>;

/** The init of a call: `params: { path, query }`, `body`, and fetch options (`headers`, `signal`…). */
export type RequestInitFor<M extends HttpMethod, P extends PathsWith<M>> = MaybeOptionalInit<paths[P], M>;

/** The init argument, required when the route has a required parameter or body. */
export type InitArgs<Init> = RequiredKeys<Init> extends never ? [init?: Init] : [init: Init];
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

/** A success answer's JSON body: the envelope `{ success: true, data, meta? }`. */
export type SuccessBody<M extends HttpMethod, P extends PathsWith<M>> = MethodResponse<ApiClient, M, P>;

/** What a call resolves to: the envelope's `data` (undefined for a 204). */
export type ResultOf<M extends HttpMethod, P extends PathsWith<M>> = SuccessBody<M, P> extends { data: infer D } ? D : undefined;

/** The cursor-paginated lists: GET routes whose answer has `meta` (next_cursor, has_more, limit). */
export type ListPath = { [P in PathsWith<'get'>]: SuccessBody<'get', P> extends { meta: Schemas['ListMeta'] } ? P : never }[PathsWith<'get'>];

/** One item of a list. */
export type ListItem<P extends ListPath> = SuccessBody<'get', P> extends { data: Array<infer T> } ? T : never;

/** A list's parameters: path parameters (required where the route has some) and query filters; `cursor` is the iterator's business. */
export type ListParams<P extends ListPath> = Omit<GetParameters<P>, 'header' | 'cookie' | 'query'> & { query?: Omit<NonNullable<GetParameters<P>['query']>, 'cursor'> };
type GetParameters<P extends ListPath> = paths[P]['get'] extends { parameters: infer X extends { query?: unknown } } ? X : never;
