import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig, Clock, DomainError, Encryptor, enqueueJob } from '@gateway/platform';
import { randomUUID } from 'node:crypto';
import type { Transporter } from 'nodemailer';
import type { DataSource, EntityManager } from 'typeorm';
import type { DevMailEntity } from '../entities/dev-mail.entity';
import { DevMailboxRepository } from './dev-mailbox.repository';
import { OutboundMailsRepository } from './outbound-mails.repository';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

const DEV_MAILBOX_LIMIT = 50;

/** The job-queue task that sends one queued mail (run by the scheduler's worker). */
export const SEND_MAIL_TASK = 'send_mail';

/**
 * Mail for people (invitations, verification, password resets). With SMTP_URL it is queued —
 * a row with the body sealed, and a `send_mail` job, in one transaction — and the scheduler's
 * job-queue worker sends it, retrying with backoff while the mail server refuses. So no request
 * waits on the mail server or fails with it, and a password-reset answer takes as long for an
 * unknown address as for a known one. Without SMTP_URL it is kept in the dev mailbox the portal
 * shows in development. Mail bodies carry link tokens: never logged, stored only sealed.
 */
@Injectable()
export class MailerService implements OnModuleInit {
  private readonly logger = new Logger('Mail');
  /** Made on the first delivery: only the scheduler sends, so the API never loads nodemailer. */
  private transport?: Promise<Transporter>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly mailbox: DevMailboxRepository,
    private readonly outbox: OutboundMailsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly encryptor: Encryptor,
  ) {}

  onModuleInit(): void {
    if (!this.queuesMail && this.config.env === 'production') {
      this.logger.warn('SMTP_URL is not set: invitation, verification and password-reset e-mails cannot be delivered.');
    }
  }

  /** Whether mail goes through the job queue (SMTP_URL is set), so a worker must run SEND_MAIL_TASK. */
  get queuesMail(): boolean {
    return Boolean(this.config.mail.smtpUrl);
  }

  /**
   * Queues the mail (or keeps it in the dev mailbox). Given `manager`, in the caller's
   * transaction: the mail exists exactly when the change it tells about committed.
   */
  async send(mail: OutgoingMail, manager?: EntityManager): Promise<void> {
    if (!this.queuesMail) {
      await this.mailbox.insert({ recipient: mail.to, subject: mail.subject, body: mail.text, createdAt: this.clock.now() }, manager);
      return;
    }
    const id = randomUUID();
    const queue = async (m: EntityManager) => {
      await this.outbox.insert({ id, recipient: mail.to, subject: mail.subject, bodySealed: this.encryptor.encrypt(mail.text, id), createdAt: this.clock.now() }, m);
      await enqueueJob(m, SEND_MAIL_TASK, { name: 'mail_id', value: id }, { maxAttempts: 10 });
    };
    await (manager ? queue(manager) : this.dataSource.transaction(queue));
  }

  /**
   * Sends one queued mail and forgets it (the job-queue worker's task). A mail already sent — a
   * retried job — is not there any more, and nothing happens. A refusal by the mail server throws,
   * and the queue retries later.
   */
  async deliverQueued(id: string): Promise<void> {
    const smtpUrl = this.config.mail.smtpUrl;
    if (!smtpUrl) throw new Error('SMTP_URL is not set: queued mail cannot be sent');
    const mail = await this.outbox.findById(id);
    if (!mail) return;
    const text = this.encryptor.decrypt(mail.bodySealed, mail.id);
    this.transport ??= import('nodemailer').then(({ createTransport }) => createTransport(smtpUrl));
    const transport = await this.transport;
    await transport.sendMail({ from: this.config.mail.from, to: mail.recipient, subject: mail.subject, text });
    await this.outbox.delete(id);
  }

  /**
   * Messages kept instead of sent, newest first (optionally for one recipient).
   * @throws not_found in production, where the mailbox does not exist as far as clients can tell
   */
  async devMailbox(recipient?: string): Promise<DevMailEntity[]> {
    if (this.config.env === 'production') throw new DomainError('not_found', 'No such endpoint.');
    return this.mailbox.listNewest(DEV_MAILBOX_LIMIT, recipient ? recipient.trim().toLowerCase() : undefined);
  }
}
