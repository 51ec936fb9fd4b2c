import { Center, Loader } from '@mantine/core';
import { Navigate, Outlet, useLocation } from 'react-router';
import { ErrorAlert } from '../../../shared/ui/ErrorAlert';
import { isApiError } from '../../../shared/api-client';
import { useMe } from '../hooks/useMe';

/** Renders the nested route for a signed-in user; anyone else is sent to sign in, and back after. */
export function RequireSession() {
  const me = useMe();
  const location = useLocation();
  if (me.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading your account" />
      </Center>
    );
  }
  if (me.isError) {
    if (isApiError(me.error) && me.error.status === 401) {
      const next = `${location.pathname}${location.search}`;
      // A refetch that failed keeps the last answer: there was a session, and it ended.
      return <Navigate to={`/sign-in?next=${encodeURIComponent(next)}`} replace state={{ expired: me.data !== undefined }} />;
    }
    return <ErrorAlert title="Your account could not be loaded" error={me.error} onRetry={() => void me.refetch()} />;
  }
  return <Outlet />;
}
