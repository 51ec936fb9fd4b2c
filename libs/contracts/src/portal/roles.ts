/** Roles inside one developer account. */
export const ACCOUNT_ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];

/** Roles of the operator's staff, across accounts. */
export const PLATFORM_ROLES = ['admin', 'financial_secretary'] as const;
export type PlatformRole = (typeof PLATFORM_ROLES)[number];
