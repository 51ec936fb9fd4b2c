import { CreateDevelopersAndApiKeys1764000000000 } from './1764000000000-CreateDevelopersAndApiKeys';

/** Every migration, oldest first. Listed explicitly so source and compiled builds agree. */
export const MIGRATIONS = [CreateDevelopersAndApiKeys1764000000000];
