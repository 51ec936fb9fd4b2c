import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig, Clock, DomainError } from '@gateway/platform';
import { createTransport, type Transporter } from 'nodemailer';
import { Repository } from 'typeorm';
import { DevMailEntity } from '../entities/dev-mail.entity';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

const DEV_MAILBOX_LIMIT = 50;

/**
 * Sends mail through SMTP_URL when configured; otherwise keeps it in the dev mailbox table the
 * portal shows in development. Mail bodies carry link tokens, so they are never logged.
 */
@Injectable()
export class MailerService implements OnModuleInit {
  private readonly logger = new Logger('Mail');
  private readonly transport?: Transporter;

  constructor(
    @InjectRepository(DevMailEntity) private readonly mailbox: Repository<DevMailEntity>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {
    if (config.mail.smtpUrl) this.transport = createTransport(config.mail.smtpUrl);
  }

  onModuleInit(): void {
    if (!this.transport && this.config.env === 'production') {
      this.logger.warn('SMTP_URL is not set: invitation, verification and password-reset e-mails cannot be delivered.');
    }
  }

  async send(mail: OutgoingMail): Promise<void> {
    if (this.transport) {
      await this.transport.sendMail({ from: this.config.mail.from, to: mail.to, subject: mail.subject, text: mail.text });
      return;
    }
    await this.mailbox.insert({ recipient: mail.to, subject: mail.subject, body: mail.text, createdAt: this.clock.now() });
  }

  /**
   * Messages kept instead of sent, newest first (optionally for one recipient).
   * @throws not_found in production, where the mailbox does not exist as far as clients can tell
   */
  async devMailbox(recipient?: string): Promise<DevMailEntity[]> {
    if (this.config.env === 'production') throw new DomainError('not_found', 'No such endpoint.');
    return this.mailbox.find({
      where: recipient ? { recipient: recipient.trim().toLowerCase() } : {},
      order: { id: 'DESC' },
      take: DEV_MAILBOX_LIMIT,
    });
  }
}
