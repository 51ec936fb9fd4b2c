import * as ts from 'typescript';
import { constantValue, inlineTypeLiteral, isFreeForm, isFreeFormArray, isString, type Literal, literalUnion } from './type-shapes';

/**
 * What Nest's swagger plugin leaves out in readonly mode, read from the same DTO source:
 *  - enums: a property typed with a union of literals (`status: PaymentStatus`, `events: EventName[]`)
 *    gets `enum` (the plugin knows only TypeScript `enum`s and reads `@IsIn` only when compiling);
 *  - limits whose argument is a named constant (`@Max(MAX_PAGE_SIZE)`, `@Matches(NUBAN_PATTERN)`),
 *    which the plugin keeps only when written as literals;
 *  - `@IsInt()` → `type: integer`;
 *  - `additionalProperties` for free-form objects (`metadata: Record<string, unknown>`), which would
 *    otherwise read as "an object with no properties" (`Record<string, never>` in generated clients);
 *  - `format: date-time` for the wire's timestamps: string properties named `…_at` (`created_at`);
 *  - the same for the members of inline object types (`session: { mode: Mode; … }`).
 * Where the document would silently say less than the code, it throws instead.
 */
const f = ts.factory;

const LIMIT_KEYWORDS: Record<string, string> = {
  Min: 'minimum',
  Max: 'maximum',
  MinLength: 'minLength',
  MaxLength: 'maxLength',
  ArrayMinSize: 'minItems',
  ArrayMaxSize: 'maxItems',
  Matches: 'pattern',
};

type Member = ts.PropertyDeclaration | ts.PropertySignature;

export function complementProperty(metadata: ts.ObjectLiteralExpression, member: Member, checker: ts.TypeChecker, label: string): ts.ObjectLiteralExpression {
  const entries = new Map<string, ts.Expression>();
  for (const property of metadata.properties) {
    if (ts.isPropertyAssignment(property)) entries.set(propertyName(property.name), property.initializer);
  }
  const decorators = decoratorCalls(member);
  const type = checker.getTypeAtLocation(member);

  const typeLiteral = member.type && inlineTypeLiteral(member.type);
  // Nest drops `nullable` from an inline object type; a class (a $ref) keeps it.
  if (typeLiteral && typeLiteral !== member.type) throw new Error(`${label}: a nullable inline object type would be documented as never null; declare it as a class.`);
  const inline = entries.get('type');
  if (inline && typeLiteral) entries.set('type', complementInline(inline, typeLiteral, checker, label));

  if (isFreeForm(type)) {
    entries.set('additionalProperties', f.createTrue());
    if (type.flags & ts.TypeFlags.Unknown) entries.set('nullable', f.createTrue());
  } else if (isFreeFormArray(type, checker)) {
    entries.set('type', f.createStringLiteral('array'));
    entries.set('items', f.createObjectLiteralExpression([f.createPropertyAssignment('type', f.createStringLiteral('object')), f.createPropertyAssignment('additionalProperties', f.createTrue())]));
  }

  const literals = literalUnion(type, checker);
  if (literals && !entries.has('enum')) {
    entries.set('type', f.createArrowFunction(undefined, undefined, [], undefined, undefined, f.createIdentifier(constructorName(literals.values))));
    entries.set('enum', f.createArrayLiteralExpression(literals.values.map(literal)));
    if (literals.array) entries.set('isArray', f.createTrue());
  } else if (decorators.has('IsIn') && !entries.has('enum')) {
    throw new Error(`${label}: @IsIn but its type is not a union of literals, so the document would not list the allowed values.`);
  }

  for (const [decorator, keyword] of Object.entries(LIMIT_KEYWORDS)) {
    const argument = decorators.get(decorator)?.arguments[0];
    if (!argument || entries.has(keyword)) continue;
    // The size of a runtime list (`@ArrayMaxSize(SCOPE_NAMES.length)`) is no constant; the items' enum bounds it anyway.
    if (ts.isPropertyAccessExpression(argument) && argument.name.text === 'length') continue;
    const value = constantValue(argument, checker);
    if (value === undefined) throw new Error(`${label}: cannot read the argument of @${decorator} (${argument.getText()}) as a constant; use a literal or a const.`);
    entries.set(keyword, literal(value));
  }
  if (decorators.has('IsInt')) entries.set('type', f.createStringLiteral('integer'));
  if (propertyName(member.name).endsWith('_at') && isString(type) && !entries.has('format')) entries.set('format', f.createStringLiteral('date-time'));

  return f.createObjectLiteralExpression([...entries].map(([name, value]) => f.createPropertyAssignment(name, value)));
}

export function propertyName(name: ts.PropertyName): string {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name)) return name.text;
  throw new Error(`Unexpected property name kind ${ts.SyntaxKind[name.kind]}`);
}

/** `type: () => ({ a: {...}, b: {...} })`, the plugin's rendering of an inline object type, complemented member by member. */
function complementInline(typeThunk: ts.Expression, typeLiteral: ts.TypeLiteralNode, checker: ts.TypeChecker, label: string): ts.Expression {
  if (!ts.isArrowFunction(typeThunk) || !ts.isParenthesizedExpression(typeThunk.body) || !ts.isObjectLiteralExpression(typeThunk.body.expression)) return typeThunk;
  const members = typeThunk.body.expression.properties.map((property) => {
    if (!ts.isPropertyAssignment(property) || !ts.isObjectLiteralExpression(property.initializer)) return property;
    const name = propertyName(property.name);
    const member = typeLiteral.members.find((m): m is ts.PropertySignature => ts.isPropertySignature(m) && propertyName(m.name) === name);
    return member ? f.createPropertyAssignment(name, complementProperty(property.initializer, member, checker, `${label}.${name}`)) : property;
  });
  return f.createArrowFunction(undefined, undefined, [], undefined, undefined, f.createParenthesizedExpression(f.createObjectLiteralExpression(members)));
}

function decoratorCalls(member: Member): Map<string, ts.CallExpression> {
  const calls = new Map<string, ts.CallExpression>();
  for (const decorator of (ts.canHaveDecorators(member) && ts.getDecorators(member)) || []) {
    const call = decorator.expression;
    if (ts.isCallExpression(call) && ts.isIdentifier(call.expression)) calls.set(call.expression.text, call);
  }
  return calls;
}

function constructorName(values: Literal[]): string {
  if (values.every((v) => typeof v === 'string')) return 'String';
  if (values.every((v) => typeof v === 'number')) return 'Number';
  if (values.every((v) => typeof v === 'boolean')) return 'Boolean';
  throw new Error(`A union of literals of different kinds (${values.join(', ')}) has no single OpenAPI type.`);
}

function literal(value: Literal): ts.Expression {
  if (typeof value === 'boolean') return value ? f.createTrue() : f.createFalse();
  if (typeof value === 'string') return f.createStringLiteral(value);
  return value < 0 ? f.createPrefixUnaryExpression(ts.SyntaxKind.MinusToken, f.createNumericLiteral(-value)) : f.createNumericLiteral(value);
}
