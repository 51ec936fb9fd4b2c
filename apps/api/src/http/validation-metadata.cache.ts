import { getMetadataStorage, type MetadataStorage } from 'class-validator';

type Target = Parameters<MetadataStorage['getTargetValidationMetadatas']>[0];
type Metadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>;
type Grouped = ReturnType<MetadataStorage['groupByPropertyName']>;

/**
 * class-validator looks a DTO's rules up again on every object it validates: it walks every
 * decorated class of the application for inherited rules (an `instanceof` per class,
 * `getTargetValidationMetadatas`) and then regroups the rules by property — per request body and
 * per nested object, the largest part of validating a small body (docs/benchmarks.md). The rules
 * only change when a decorated class is defined, so both answers are kept until a rule is added.
 * The executor only reads them. Lookups with validation groups (which we never use) are not kept.
 */
export function cacheValidationMetadata(storage: MetadataStorage = getMetadataStorage()): void {
  if (CACHED.has(storage)) return;
  CACHED.add(storage);
  const lookUp = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const addMetadata = storage.addValidationMetadata.bind(storage);
  let byTarget = new WeakMap<Target, Map<string, Metadata>>();
  let grouped = new WeakMap<Metadata, Grouped>();

  storage.addValidationMetadata = (metadata) => {
    byTarget = new WeakMap();
    grouped = new WeakMap();
    addMetadata(metadata);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (groups?.length) return lookUp(target, schema, always, strictGroups, groups);
    let answers = byTarget.get(target);
    if (!answers) byTarget.set(target, (answers = new Map()));
    const key = `${String(schema)}|${always}|${strictGroups}`;
    let metadata = answers.get(key);
    if (!metadata) answers.set(key, (metadata = lookUp(target, schema, always, strictGroups)));
    return metadata;
  };
  storage.groupByPropertyName = (metadata) => {
    let byProperty = grouped.get(metadata);
    if (!byProperty) grouped.set(metadata, (byProperty = group(metadata)));
    return byProperty;
  };
}

const CACHED = new WeakSet<MetadataStorage>();
