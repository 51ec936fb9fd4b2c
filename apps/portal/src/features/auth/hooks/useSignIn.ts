import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { signIn, signInWithTotp, type LoginAnswer } from '../api';
import { ME_QUERY_KEY } from './useMe';

export type SignInStage = 'password' | 'totp' | 'done';

/** The two sign-in steps; `stage` says which form to show. */
export function useSignIn() {
  const queryClient = useQueryClient();
  const [stage, setStage] = useState<SignInStage>('password');

  const finish = (answer: LoginAnswer) => {
    if (answer.stage === 'totp_required') {
      setStage('totp');
      return;
    }
    // A previous session's answers must not show through.
    queryClient.clear();
    if (answer.user) queryClient.setQueryData(ME_QUERY_KEY, answer.user);
    setStage('done');
  };

  const password = useMutation({
    mutationFn: ({ email, password: secret }: { email: string; password: string }) => signIn(email, secret),
    onSuccess: finish,
  });
  const totp = useMutation({ mutationFn: signInWithTotp, onSuccess: finish });

  const restart = () => {
    password.reset();
    totp.reset();
    setStage('password');
  };

  return { stage, password, totp, restart };
}
