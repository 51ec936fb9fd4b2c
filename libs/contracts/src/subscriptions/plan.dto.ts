import { IsBoolean, IsIn, IsInt, IsNumber, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { ListQueryDto } from '../pagination';

/** How often a plan bills: every day, every 7 days, every calendar month, every calendar year (docs/subscriptions.md). */
export const PLAN_INTERVALS = ['daily', 'weekly', 'monthly', 'yearly'] as const;
export type PlanInterval = (typeof PLAN_INTERVALS)[number];

/** The longest free trial a plan may give: two years. */
export const MAX_TRIAL_PERIOD_DAYS = 730;

export class CreatePlanRequest {
  /** Shown to the merchant (and in events); 1–100 characters. @example "Pro monthly" */
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name: string;

  /**
   * Charged every interval, major unit, > 0, at most 2 decimals, within the payment limits of the
   * currency (decisions.md: NGN 100 minimum by default).
   * @example 5000
   */
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'amount must be a number' })
  amount: number;

  /** NGN (default), USD, GBP or KES; anything else is 400 `invalid_currency`. @example "NGN" */
  @IsOptional()
  @IsString()
  @MaxLength(3)
  currency?: string;

  /** @example "monthly" */
  @IsIn(PLAN_INTERVALS, { message: `interval must be one of ${PLAN_INTERVALS.join(', ')}` })
  interval: PlanInterval;

  /** Free days before the first charge (0, the default: the first charge is made when subscribing). @example 14 */
  @IsOptional()
  @IsInt({ message: 'trial_period_days must be a whole number of days' })
  @Min(0)
  @Max(MAX_TRIAL_PERIOD_DAYS)
  trial_period_days?: number;
}

/**
 * Only the name and whether new subscriptions are accepted can change: amount, currency, interval
 * and trial are what existing subscribers agreed to (create a new plan to change them).
 */
export class UpdatePlanRequest {
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name?: string;

  /** `false` archives the plan (no new subscriptions; existing ones continue), `true` reopens it. */
  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

export class ListPlansQuery extends ListQueryDto {
  /** `true`: plans open to new subscriptions; `false`: archived ones. */
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'active must be true or false' })
  active?: 'true' | 'false';

  @IsOptional()
  @IsIn(PLAN_INTERVALS, { message: `interval must be one of ${PLAN_INTERVALS.join(', ')}` })
  interval?: PlanInterval;

  @IsOptional()
  @IsString()
  @MaxLength(3)
  currency?: string;
}

export class PlanResponse {
  /** `PLN_…`, used in paths and as `plan_id`. */
  id: string;
  name: string;
  /** Major unit. */
  amount: number;
  currency: string;
  interval: PlanInterval;
  trial_period_days: number;
  /** false once archived: no new subscriptions, existing ones continue. */
  active: boolean;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}
