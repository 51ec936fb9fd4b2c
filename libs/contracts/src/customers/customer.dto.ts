import { IsEmail, IsObject, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { ListQueryDto } from '../pagination';

export class CreateCustomerRequest {
  /** @example "ada@example.com" */
  @IsEmail({}, { message: 'email must be a valid e-mail address' })
  @MaxLength(254)
  email: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  /** @example "+2348012345678" */
  @IsOptional()
  @Matches(/^\+?[0-9][0-9 ()-]{4,19}$/, { message: 'phone must be a phone number such as +2348012345678' })
  phone?: string;

  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown>;
}

export class ListCustomersQuery extends ListQueryDto {
  @IsOptional()
  @IsEmail({}, { message: 'email must be a valid e-mail address' })
  email?: string;
}

export class CustomerResponse {
  reference: string;
  email: string;
  name: string | null;
  phone: string | null;
  metadata: Record<string, unknown>;
  created_at: string;
}
