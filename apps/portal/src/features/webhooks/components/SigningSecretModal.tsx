import { OneTimeSecretModal } from '../../../shared/ui/OneTimeSecretModal';

export interface SigningSecretModalProps {
  /** The secret as the API returned it once; null closes the modal. */
  secret: string | null;
  onClose: () => void;
}

/** An endpoint's signing secret, the one time the API reveals it (created or rotated); kept nowhere else. */
export function SigningSecretModal({ secret, onClose }: SigningSecretModalProps) {
  return (
    <OneTimeSecretModal
      secret={secret}
      onClose={onClose}
      title="Signing secret"
      noun="secret"
      testId="webhook-secret"
      advice="This is the only time the secret is shown. Your receiver checks every delivery's X-Gateway-Signature with it; store it with your other secrets."
    />
  );
}
