/** Links into the API itself (served by the API, proxied in development). */
export const API_DOCS_URL = '/api/docs';
export const OPENAPI_JSON_URL = '/api/docs.json';
export const PRODUCT_NAME = 'Gateway';
