import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gateway/platform';
import { type CounterRecord, FailOpenStorage } from './fail-open-storage';
import { MemoryRateLimitCounters } from './memory-rate-limit-counters';
import { RedisRateLimitCounters } from './redis-rate-limit-counters';

/**
 * Where both buckets count: Redis when REDIS_URL is set, so every API instance shares one limit;
 * otherwise this process's memory (right for a single instance). A Redis counting failure lets
 * the request through with a logged warning (memory counting cannot fail).
 */
@Injectable()
export class RateLimitStorage implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly redis?: RedisRateLimitCounters;
  private readonly memory?: MemoryRateLimitCounters;
  private readonly failOpen?: FailOpenStorage;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    if (config.redisUrl) {
      this.redis = new RedisRateLimitCounters(config.redisUrl, (error) =>
        this.failOpen?.warnThrottled(`Redis connection error: ${error.message}`),
      );
      this.failOpen = new FailOpenStorage(this.redis, (message) => this.logger.warn(message));
    } else {
      this.memory = new MemoryRateLimitCounters();
    }
  }

  async onModuleInit(): Promise<void> {
    if (!this.redis) return;
    try {
      await this.redis.connect();
    } catch (error) {
      // Starting without Redis is allowed: requests go unlimited until it answers (fail open).
      this.failOpen?.warnThrottled(
        `Redis not reachable at start-up, requests are not limited until it is: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** Counts one request. In memory the answer is immediate (no promise, no microtask). */
  increment(key: string, ttl: number, limit: number, blockDuration: number, bucket: string): CounterRecord | Promise<CounterRecord> {
    if (this.memory) return this.memory.increment(key, ttl, limit, blockDuration, bucket);
    return (this.failOpen as FailOpenStorage).increment(key, ttl, limit, blockDuration, bucket);
  }

  onApplicationShutdown(): void {
    this.redis?.close();
    this.memory?.close();
  }
}
