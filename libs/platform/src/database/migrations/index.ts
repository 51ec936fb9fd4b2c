import { CreateDevelopersAndApiKeys1764000000000 } from './1764000000000-CreateDevelopersAndApiKeys';
import { CreateIpAllowlistAndCustomers1764000050000 } from './1764000050000-CreateIpAllowlistAndCustomers';
import { CreateIdempotencyKeys1764000100000 } from './1764000100000-CreateIdempotencyKeys';
import { CreateRequestLogs1764000200000 } from './1764000200000-CreateRequestLogs';
import { CreatePortalIdentity1764000300000 } from './1764000300000-CreatePortalIdentity';

/** Every migration, oldest first. Listed explicitly so source and compiled builds agree. */
export const MIGRATIONS = [
  CreateDevelopersAndApiKeys1764000000000,
  CreateIpAllowlistAndCustomers1764000050000,
  CreateIdempotencyKeys1764000100000,
  CreateRequestLogs1764000200000,
  CreatePortalIdentity1764000300000,
];
