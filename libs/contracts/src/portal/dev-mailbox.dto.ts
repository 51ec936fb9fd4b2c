import { IsEmail, IsOptional } from 'class-validator';

export class DevMailboxQuery {
  @IsOptional()
  @IsEmail({}, { message: 'to must be a valid e-mail address' })
  to?: string;
}

export class DevMailResponse {
  id: string;
  to: string;
  subject: string;
  body: string;
  created_at: string;
}
