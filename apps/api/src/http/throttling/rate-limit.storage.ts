import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { type ThrottlerStorage, ThrottlerStorageService } from '@nestjs/throttler';
import { APP_CONFIG, type AppConfig } from '@gateway/platform';
import { type CounterRecord, FailOpenStorage } from './fail-open-storage';
import { RedisRateLimitCounters } from './redis-rate-limit-counters';

/**
 * Where both buckets count: Redis when REDIS_URL is set, so every API instance shares one limit;
 * otherwise this process's memory (right for a single instance). Either way a counting failure
 * lets the request through with a logged warning.
 */
@Injectable()
export class RateLimitStorage implements ThrottlerStorage, OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly redis?: RedisRateLimitCounters;
  private readonly memory?: ThrottlerStorageService;
  private readonly counters: FailOpenStorage;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    let counters: ThrottlerStorage;
    if (config.redisUrl) {
      this.redis = new RedisRateLimitCounters(config.redisUrl, (error) =>
        this.counters.warnThrottled(`Redis connection error: ${error.message}`),
      );
      counters = this.redis;
    } else {
      this.memory = new ThrottlerStorageService();
      counters = this.memory;
    }
    this.counters = new FailOpenStorage(counters, (message) => this.logger.warn(message));
  }

  async onModuleInit(): Promise<void> {
    if (!this.redis) return;
    try {
      await this.redis.connect();
    } catch (error) {
      // Starting without Redis is allowed: requests go unlimited until it answers (fail open).
      this.counters.warnThrottled(
        `Redis not reachable at start-up, requests are not limited until it is: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  increment(key: string, ttl: number, limit: number, blockDuration: number, bucket: string): Promise<CounterRecord> {
    return this.counters.increment(key, ttl, limit, blockDuration, bucket);
  }

  onApplicationShutdown(): void {
    this.redis?.close();
    this.memory?.onApplicationShutdown();
  }
}
