import type { OutgoingMail } from './mailer.service';

/**
 * The e-mails the portal sends. Links open the portal's pages by their hash URL
 * (`…/#/invitations/accept?token=…`, `…/#/password-reset?token=…`): the portal is static files
 * served without rewrite rules, and the token, inside the URL fragment, is never sent to a server,
 * so it stays out of access logs and Referer headers.
 */
export function invitationMail(to: string, portalBaseUrl: string, token: string, accountName: string, role: string): OutgoingMail {
  return {
    to,
    subject: `You are invited to ${accountName} on the payment gateway`,
    text: [
      `You have been invited to join ${accountName} as ${role}.`,
      '',
      `Accept the invitation and choose a password: ${portalBaseUrl}/#/invitations/accept?token=${token}`,
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
      `Confirm that ${to} is your address: ${portalBaseUrl}/#/verify-email?token=${token}`,
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
      `Choose a new password: ${portalBaseUrl}/#/password-reset?token=${token}`,
      '',
      'The link works once and expires in 1 hour. If you did not ask for it, ignore this e-mail; your password is unchanged.',
    ].join('\n'),
  };
}
