import { createTheme, Drawer, Loader, MantineProvider, Modal, Notification } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { ME_QUERY_KEY } from '../features/auth';
import { onSessionExpired } from '../shared/api';
import { createQueryClient } from './query-client';
import { createPortalRouter } from './router';

// Every close button named, for screen readers (axe's button-name rule); every loader a live
// status region, so the name the pages give it ("Loading the chart") is allowed and announced
// (a plain element may not carry aria-label: axe's aria-prohibited-attr).
const theme = createTheme({
  components: {
    Loader: Loader.extend({ defaultProps: { role: 'status' } }),
    Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss' } } }),
    Drawer: Drawer.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
  },
});

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(createPortalRouter);

  // A 401 after having been signed in: the session ended (idle, expiry, signed out elsewhere).
  // Without a session there was nothing to end (e.g. the public status page asking who is there).
  useEffect(
    () =>
      onSessionExpired(() => {
        const hadSession = queryClient.getQueryData(ME_QUERY_KEY) !== undefined;
        if (!hadSession) return;
        queryClient.clear();
        const { pathname, search } = router.state.location;
        void router.navigate(`/sign-in?next=${encodeURIComponent(pathname + search)}`, { replace: true, state: { expired: true } });
      }),
    [queryClient, router],
  );

  return (
    <MantineProvider theme={theme}>
      <Notifications position="top-right" />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
