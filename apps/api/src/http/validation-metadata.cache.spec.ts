import { getMetadataStorage, IsInt, IsString, validate } from 'class-validator';
import { cacheValidationMetadata } from './validation-metadata.cache';

class Named {
  @IsString()
  name!: unknown;
}

async function failedProperties(object: object): Promise<string[]> {
  const errors = await validate(object, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true });
  return errors.map((error) => error.property).sort();
}

describe('cacheValidationMetadata', () => {
  beforeAll(() => cacheValidationMetadata());

  it('answers a repeated lookup with the same rules as the first', async () => {
    expect(await failedProperties(Object.assign(new Named(), { name: 5 }))).toEqual(['name']);
    expect(await failedProperties(Object.assign(new Named(), { name: 5, extra: 1 }))).toEqual(['extra', 'name']);
    expect(await failedProperties(Object.assign(new Named(), { name: 'ok' }))).toEqual([]);
  });

  it('sees the rules of a class defined after the first lookups, inherited ones included', async () => {
    await failedProperties(new Named());
    class Counted extends Named {
      @IsInt()
      count!: unknown;
    }
    expect(await failedProperties(Object.assign(new Counted(), { name: 5, count: 'x' }))).toEqual(['count', 'name']);
  });

  it('forgets what it kept when a rule is added to a class already looked up', async () => {
    class Later {
      @IsString()
      name!: unknown;
    }
    expect(await failedProperties(Object.assign(new Later(), { name: 'ok', age: 'x' }))).toEqual(['age']);
    IsInt()(Later.prototype, 'age');
    expect(await failedProperties(Object.assign(new Later(), { name: 'ok', age: 'x' }))).toEqual(['age']);
    expect(await failedProperties(Object.assign(new Later(), { name: 'ok', age: 3 }))).toEqual([]);
  });

  it('keeps lookups with validation groups out of the cache', () => {
    const storage = getMetadataStorage();
    const withGroups = storage.getTargetValidationMetadatas(Named, '', false, false, ['admin']);
    expect(storage.getTargetValidationMetadatas(Named, '', false, false, ['admin'])).not.toBe(withGroups);
    expect(storage.getTargetValidationMetadatas(Named, '', false, false)).toBe(storage.getTargetValidationMetadatas(Named, '', false, false));
  });

  it('is installed once however often it is called', () => {
    const storage = getMetadataStorage();
    const lookUp = storage.getTargetValidationMetadatas;
    cacheValidationMetadata();
    expect(storage.getTargetValidationMetadatas).toBe(lookUp);
  });
});
