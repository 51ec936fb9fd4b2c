export * from './AppShell';
export * from './PageHeader';
export * from './SideNav';
