import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gateway/platform';
import { type CounterRecord, FallbackStorage } from './fallback-storage';
import { MemoryRateLimitCounters } from './memory-rate-limit-counters';
import { RedisRateLimitCounters } from './redis-rate-limit-counters';

/**
 * Where both buckets count: Redis when REDIS_URL is set, so every API instance shares one limit;
 * otherwise this process's memory (right for a single instance). While Redis fails, each instance
 * counts in its own memory with a logged warning (memory counting cannot fail).
 */
@Injectable()
export class RateLimitStorage implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly redis?: RedisRateLimitCounters;
  private readonly memory = new MemoryRateLimitCounters();
  private readonly fallback?: FallbackStorage;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    if (config.redisUrl) {
      this.redis = new RedisRateLimitCounters(config.redisUrl, (error) =>
        this.fallback?.warnThrottled(`Redis connection error: ${error.message}`),
      );
      this.fallback = new FallbackStorage(this.redis, this.memory, (message) => this.logger.warn(message));
    }
  }

  async onModuleInit(): Promise<void> {
    if (!this.redis) return;
    try {
      await this.redis.connect();
    } catch (error) {
      // Starting without Redis is allowed: each instance counts on its own until Redis answers.
      this.fallback?.warnThrottled(
        `Redis not reachable at start-up, counting per instance until it is: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** Counts one request. In memory the answer is immediate (no promise, no microtask). */
  increment(key: string, ttl: number, limit: number, blockDuration: number, bucket: string): CounterRecord | Promise<CounterRecord> {
    return this.fallback ? this.fallback.increment(key, ttl, limit, blockDuration, bucket) : this.memory.increment(key, ttl, limit, blockDuration, bucket);
  }

  onApplicationShutdown(): void {
    this.redis?.close();
    this.memory.close();
  }
}
