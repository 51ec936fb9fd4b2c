import * as fc from 'fast-check';

/**
 * An integer arbitrary that always generates `n` but shrinks like `fc.integer({min: 0, max: n})`.
 */
class GeneratesExactly extends fc.Arbitrary<number> {
  private readonly shrinker: fc.Arbitrary<number>;

  constructor(private readonly n: number) {
    super();
    this.shrinker = fc.integer({ min: 0, max: n });
  }

  generate(): fc.Value<number> {
    return new fc.Value(this.n, undefined);
  }

  canShrinkWithoutContext(value: unknown): value is number {
    return this.shrinker.canShrinkWithoutContext(value);
  }

  shrink(value: number, context: unknown): fc.Stream<fc.Value<number>> {
    return this.shrinker.shrink(value, context);
  }
}

/**
 * `fc.commands` whose every generated sequence has exactly `n` commands (fc.commands draws a
 * length between 0 and maxCommands, and a row's figure is a number of operations per run), while
 * shrinking stays fast-check's own: executed commands only, dropping ranges, then shrinking each
 * command. fast-check has no option for a fixed length, so the length arbitrary of the commands
 * arbitrary (a field of fast-check 4.3.0, pinned) is replaced; if a new version renames it, this
 * throws instead of silently generating other lengths.
 */
export function exactlyCommands<Model extends object, Real>(
  arbitraries: Array<fc.Arbitrary<fc.AsyncCommand<Model, Real>>>,
  n: number,
): fc.Arbitrary<Iterable<fc.AsyncCommand<Model, Real>>> {
  const commands = fc.commands(arbitraries, { maxCommands: n });
  const internals = commands as unknown as { lengthArb?: unknown };
  if (!(internals.lengthArb instanceof fc.Arbitrary)) {
    throw new Error('fast-check changed: fc.commands has no lengthArb to fix the number of commands; see exact-commands.ts');
  }
  internals.lengthArb = new GeneratesExactly(n);
  return commands;
}
