import { ArrayMaxSize, IsArray, IsEmail, IsIn, IsOptional, IsString, IsUrl, Matches, MaxLength, MinLength } from 'class-validator';
import { ListQueryDto } from '../pagination';

/** open → under_review (evidence submitted) → won | lost; an open dispute past its deadline is lost (decisions.md). */
export const DISPUTE_STATUSES = ['open', 'under_review', 'won', 'lost'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

export const SANDBOX_DISPUTE_OUTCOMES = ['won', 'lost'] as const;
export type SandboxDisputeOutcome = (typeof SANDBOX_DISPUTE_OUTCOMES)[number];

/** Calendar dates only: the provider takes `delivery_date` as YYYY-MM-DD. */
const ISO_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

export class ListDisputesQuery extends ListQueryDto {
  @IsOptional()
  @IsIn(DISPUTE_STATUSES, { message: `status must be one of ${DISPUTE_STATUSES.join(', ')}` })
  status?: DisputeStatus;
}

/**
 * The evidence that contests a chargeback (docs/disputes.md). The first four are what the
 * provider requires before it lets a dispute be contested; the rest strengthen the case.
 */
export class SubmitDisputeEvidenceRequest {
  /** @example "ada@example.com" */
  @IsEmail({}, { message: 'customer_email must be an email address' })
  @MaxLength(254)
  customer_email: string;

  /** @example "Ada Lovelace" */
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  customer_name: string;

  /** Digits, spaces, `+`, `-` and parentheses, 7–20 characters. @example "+2348012345678" */
  @IsString()
  @Matches(/^\+?[0-9 ()-]{7,20}$/, { message: 'customer_phone must be a phone number (7 to 20 digits, spaces, +, -, parentheses)' })
  customer_phone: string;

  /** What was sold or done: the product or the service. @example "One year of the Pro plan" */
  @IsString()
  @MinLength(1)
  @MaxLength(2000)
  service_details: string;

  /** When the service was given (YYYY-MM-DD). */
  @IsOptional()
  @Matches(ISO_DATE, { message: 'service_date must be a date (YYYY-MM-DD)' })
  service_date?: string;

  /** When the goods were delivered (YYYY-MM-DD). */
  @IsOptional()
  @Matches(ISO_DATE, { message: 'delivery_date must be a date (YYYY-MM-DD)' })
  delivery_date?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  delivery_address?: string;

  /** Free text: why the charge is valid, in the merchant's words. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(5000)
  explanation?: string;

  /** Links to documents the merchant hosts (receipts, proof of delivery, correspondence): https only, at most 10. */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @IsUrl({ protocols: ['https'], require_protocol: true }, { each: true, message: 'each file_urls entry must be an https URL' })
  @MaxLength(2000, { each: true })
  file_urls?: string[];
}

export class SandboxResolveDisputeRequest {
  @IsIn(SANDBOX_DISPUTE_OUTCOMES, { message: `outcome must be one of ${SANDBOX_DISPUTE_OUTCOMES.join(', ')}` })
  outcome: SandboxDisputeOutcome;
}

/** The evidence as submitted (null fields were not given). */
export class DisputeEvidenceResponse {
  customer_email: string;
  customer_name: string;
  customer_phone: string;
  service_details: string;
  service_date: string | null;
  delivery_date: string | null;
  delivery_address: string | null;
  explanation: string | null;
  file_urls: string[];
}

export class DisputeResponse {
  /** `DSP_…` */
  reference: string;
  payment_reference: string;
  /** The amount the customer disputes (major unit). */
  amount: number;
  /** What the wallet holds for it while it is open or under review (at most `amount`; less when the available balance could not cover it). */
  amount_held: number;
  currency: string;
  reason: string | null;
  status: DisputeStatus;
  evidence: DisputeEvidenceResponse | null;
  /** The deadline for evidence: an `open` dispute still without evidence then is `lost`. */
  evidence_due_at: string;
  submitted_at: string | null;
  resolved_at: string | null;
  created_at: string;
}
