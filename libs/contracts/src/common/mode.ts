/** Test and live are fully isolated; the API key used decides which one a request runs in. */
export const MODES = ['test', 'live'] as const;
export type Mode = (typeof MODES)[number];
