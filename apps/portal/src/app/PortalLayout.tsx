import { Anchor, AppShell, Burger, Group, NavLink, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import { Navigate, NavLink as RouterNavLink, Outlet, useLocation, useMatches } from 'react-router';
import { API_DOCS_URL, PRODUCT_NAME } from '../shared/links';
import { platformRoleAllows } from '../features/admin/role-matrix';
import { useMe } from '../features/auth';
import { AccountMenu } from './AccountMenu';
import { ACCOUNTLESS_PATHS, ADMIN_LINKS, PAGE_LINKS, RESOURCE_LINKS } from './navigation';
import type { RouteHandle } from './router';

const MAIN_ID = 'main-content';

/** Banner, side navigation, main region and footer: each a landmark assistive technology can jump to. */
export function PortalLayout() {
  const [navOpen, { toggle, close }] = useDisclosure(false);
  const location = useLocation();
  const matches = useMatches();
  const title = matches.map((match) => (match.handle as RouteHandle | undefined)?.title).findLast(Boolean);
  const mainRef = useRef<HTMLElement>(null);
  const firstPath = useRef(location.pathname);
  const me = useMe();
  // Platform staff may have no developer account: they see the admin console and the pages that need none.
  const platformRole = me.data?.platform_role ?? null;
  const staffOnly = Boolean(me.data && !me.data.account && platformRole);
  const pageLinks = staffOnly ? PAGE_LINKS.filter((link) => ACCOUNTLESS_PATHS.includes(link.to)) : PAGE_LINKS;
  const adminLinks = ADMIN_LINKS.filter((link) => platformRoleAllows(platformRole, link.permission));
  const accountPage = !location.pathname.startsWith('/admin') && !ACCOUNTLESS_PATHS.includes(location.pathname);

  useEffect(() => {
    if (title) document.title = `${title} · ${PRODUCT_NAME}`;
  }, [title]);

  // After navigating (not on the first load) focus the new page, as a full page load would.
  useEffect(() => {
    close();
    if (location.pathname !== firstPath.current) mainRef.current?.focus();
  }, [location.pathname, close]);

  return (
    <AppShell header={{ height: 60 }} navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !navOpen } }} footer={{ height: 44 }} padding="md">
      <a className="skip-link" href={`#${MAIN_ID}`} onClick={(event) => (event.preventDefault(), mainRef.current?.focus())}>
        Skip to content
      </a>
      <AppShell.Header px="md">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={navOpen} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Anchor component={RouterNavLink} to="/" underline="never" c="inherit" aria-label={`${PRODUCT_NAME} developer portal, home`}>
              <Text fw={700}>{PRODUCT_NAME}</Text>
            </Anchor>
            <Text size="sm" c="dimmed" visibleFrom="sm">
              Developer portal
            </Text>
            <Anchor href={API_DOCS_URL} size="sm" visibleFrom="sm">
              API docs
            </Anchor>
          </Group>
          <AccountMenu />
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Portal">
        {pageLinks.map((link) => (
          <NavLink key={link.to} component={RouterNavLink} to={link.to} label={link.label} />
        ))}
        {adminLinks.length > 0 && (
          <>
            <Text size="xs" c="dimmed" mt="md" px="sm" tt="uppercase" fw={600}>
              Admin
            </Text>
            {adminLinks.map((link) => (
              <NavLink key={link.to} component={RouterNavLink} to={link.to} label={link.label} />
            ))}
          </>
        )}
        <Text size="xs" c="dimmed" mt="md" px="sm" tt="uppercase" fw={600}>
          Resources
        </Text>
        {RESOURCE_LINKS.map((link) => (
          <NavLink key={link.href} href={link.href} label={link.label} />
        ))}
      </AppShell.Navbar>
      <AppShell.Main id={MAIN_ID} ref={mainRef} tabIndex={-1}>
        {staffOnly && accountPage ? <Navigate to="/admin" replace /> : <Outlet />}
      </AppShell.Main>
      <AppShell.Footer px="md">
        <Text size="xs" c="dimmed" lh="44px">
          {PRODUCT_NAME} — a self-hostable payment gateway. <Anchor href={API_DOCS_URL}>API reference</Anchor>
        </Text>
      </AppShell.Footer>
    </AppShell>
  );
}
