import type { OutgoingMail } from './mailer.service';

/**
 * The e-mails the portal sends. Tokens travel in the URL fragment (`#token=`), which browsers do
 * not send to servers, so they stay out of access logs and Referer headers.
 */
export function invitationMail(to: string, portalBaseUrl: string, token: string, accountName: string, role: string): OutgoingMail {
  return {
    to,
    subject: `You are invited to ${accountName} on the payment gateway`,
    text: [
      `You have been invited to join ${accountName} as ${role}.`,
      '',
      `Accept the invitation and choose a password: ${portalBaseUrl}/accept-invite#token=${token}`,
      '',
      'The link works once and expires in 7 days. If you did not expect it, ignore this e-mail.',
    ].join('\n'),
  };
}

export function emailVerificationMail(to: string, portalBaseUrl: string, token: string): OutgoingMail {
  return {
    to,
    subject: 'Verify your e-mail address',
    text: [
      `Confirm that ${to} is your address: ${portalBaseUrl}/verify-email#token=${token}`,
      '',
      'The link works once and expires in 24 hours.',
    ].join('\n'),
  };
}

export function passwordResetMail(to: string, portalBaseUrl: string, token: string): OutgoingMail {
  return {
    to,
    subject: 'Reset your password',
    text: [
      `Choose a new password: ${portalBaseUrl}/reset-password#token=${token}`,
      '',
      'The link works once and expires in 1 hour. If you did not ask for it, ignore this e-mail; your password is unchanged.',
    ].join('\n'),
  };
}
