import { z } from 'zod';

const port = z.coerce.number().int().min(1).max(65535);
const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || protocols.some((p) => v.startsWith(`${p}://`)), {
      message: `must be a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    });
const httpUrl = z.string().trim().url().refine((v) => /^https?:\/\//.test(v), 'must be an http(s) URL');

/**
 * Every setting the gateway reads, validated once at boot. Nothing else reads process.env.
 * Names are the environment variable names; `.env.example` documents each one.
 */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug']).default('info'),

  API_HOST: z.string().trim().min(1).default('127.0.0.1'),
  API_PORT: port.default(3000),
  PUBLIC_BASE_URL: httpUrl.default('http://localhost:3000'),

  DATABASE_URL: optionalUrl(['postgres', 'postgresql']),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  EMBEDDED_PG_DIR: z.string().trim().min(1).default('.data/postgres'),
  EMBEDDED_PG_PORT: port.default(54329),

  REDIS_URL: optionalUrl(['redis', 'rediss']),

  SCHEDULER_HOST: z.string().trim().min(1).default('127.0.0.1'),
  SCHEDULER_PORT: port.default(3002),
});

export type RawConfig = z.infer<typeof configSchema>;
