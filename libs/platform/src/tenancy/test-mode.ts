import { DomainError } from '../errors';
import type { DeveloperContext } from './developer-context';

/**
 * Sandbox controls act for test keys only, so nothing in the sandbox can move real money.
 * @throws test_mode_required
 */
export function requireTestMode(ctx: DeveloperContext): void {
  if (ctx.mode !== 'test') throw new DomainError('test_mode_required', 'Sandbox controls work with test keys only.');
}
