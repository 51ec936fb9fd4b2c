import { OneTimeSecretModal } from '../../../shared/ui/OneTimeSecretModal';

export interface SecretModalProps {
  /** The key as the API returned it once; null closes the modal. */
  secret: string | null;
  onClose: () => void;
}

/** Shows a new key's secret the one time the API reveals it; it is kept nowhere else. */
export function SecretModal({ secret, onClose }: SecretModalProps) {
  return (
    <OneTimeSecretModal
      secret={secret}
      onClose={onClose}
      title="Your new key"
      noun="key"
      testId="new-key-secret"
      advice="This is the only time the key is shown. Store it in your secret manager; the portal cannot show it again."
    />
  );
}
