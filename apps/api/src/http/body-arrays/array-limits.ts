import { createRequire } from 'node:module';
import type { FieldErrors } from '@gateway/contracts';
import { ARRAY_MAX_SIZE, getMetadataStorage, ValidationTypes } from 'class-validator';

/**
 * Array item limits, checked before anything looks at the items. class-validator checks
 * `@ArrayMaxSize` alongside every other rule, after it has validated (and class-transformer has
 * built) every item: a 10,000-item bulk body held the event loop for half a second before being
 * refused. This reads the same `@ArrayMaxSize` declarations and compares lengths only — nested
 * DTOs included (`@ValidateNested` + `@Type`), each array before its items are visited.
 *
 * `overrides` lower a top-level property's limit for one route (a configured maximum below the
 * DTO's ceiling); they never raise it.
 */
export function oversizedArrays(dto: DtoClass, body: unknown, overrides: Readonly<Record<string, number>> = {}, path = ''): FieldErrors {
  const errors: FieldErrors = {};
  collect(dto, body, overrides, path, errors);
  return errors;
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- DTO classes of any constructor shape
export type DtoClass = Function;

function collect(dto: DtoClass, value: unknown, overrides: Readonly<Record<string, number>>, path: string, errors: FieldErrors): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  const record = value as Record<string, unknown>;
  const { arrays, nested } = shapeOf(dto);
  for (const { property, max } of arrays) {
    const items = record[property];
    const limit = Math.min(max, overrides[property] ?? max);
    if (Array.isArray(items) && items.length > limit) errors[join(path, property)] = [`${property} must contain no more than ${limit} elements`];
  }
  for (const { property, type } of nested) {
    const item = record[property];
    if (errors[join(path, property)]) continue;
    if (Array.isArray(item)) item.forEach((element, index) => collect(type, element, {}, join(path, `${property}.${index}`), errors));
    else collect(type, item, {}, join(path, property), errors);
  }
}

const join = (path: string, property: string) => (path ? `${path}.${property}` : property);

interface DtoShape {
  /** Properties declaring `@ArrayMaxSize`, with their limit. */
  arrays: Array<{ property: string; max: number }>;
  /** Properties validated as another DTO (`@ValidateNested` with a `@Type`). */
  nested: Array<{ property: string; type: DtoClass }>;
}

const shapes = new WeakMap<DtoClass, DtoShape>();

/** Read once per class from the decorators' metadata (inherited declarations included). */
export function shapeOf(dto: DtoClass): DtoShape {
  const known = shapes.get(dto);
  if (known) return known;
  const shape: DtoShape = { arrays: [], nested: [] };
  // Set before walking, so a DTO that (indirectly) nests itself ends the walk.
  shapes.set(dto, shape);
  for (const metadata of getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false)) {
    if (metadata.name === ARRAY_MAX_SIZE && !metadata.each) {
      shape.arrays.push({ property: metadata.propertyName, max: Number(metadata.constraints[0]) });
    } else if (metadata.type === ValidationTypes.NESTED_VALIDATION) {
      const type = nestedType(dto, metadata.propertyName);
      if (type && !shape.nested.some((n) => n.property === metadata.propertyName)) shape.nested.push({ property: metadata.propertyName, type });
    }
  }
  return shape;
}

/**
 * class-transformer keeps `@Type(() => X)` targets in its metadata storage and offers no public
 * reader; @nestjs/mapped-types reads them the same way.
 */
interface TypeMetadataStorage {
  findTypeMetadata(target: DtoClass, propertyName: string): { typeFunction: (options?: unknown) => DtoClass | undefined } | undefined;
}
const { defaultMetadataStorage } = createRequire(__filename)('class-transformer/cjs/storage') as { defaultMetadataStorage: TypeMetadataStorage };

function nestedType(dto: DtoClass, property: string): DtoClass | undefined {
  const type = defaultMetadataStorage.findTypeMetadata(dto, property)?.typeFunction();
  return typeof type === 'function' && type !== Object && type !== Array ? type : undefined;
}
