import * as ts from 'typescript';

/** What a DTO property's TypeScript type says about its schema. */
export type Literal = string | number | boolean;

/** The literal values of a (nullable, possibly array) union of literal types; undefined for anything else. */
export function literalUnion(type: ts.Type, checker: ts.TypeChecker): { values: Literal[]; array: boolean } | undefined {
  const element = arrayElement(type, checker);
  const candidates = element ? members(element) : presentMembers(type);
  if (!candidates.length) return undefined;
  const values: Literal[] = [];
  for (const candidate of candidates) {
    if (candidate.isStringLiteral() || candidate.isNumberLiteral()) values.push(candidate.value);
    else if (candidate.flags & ts.TypeFlags.BooleanLiteral) values.push(checker.typeToString(candidate) === 'true');
    else return undefined;
  }
  // `boolean` is the union `true | false`: a plain boolean, not an enum.
  if (values.length === 2 && values.every((v) => typeof v === 'boolean')) return undefined;
  return { values, array: element !== undefined };
}

/** `unknown`, or an object type with an index signature and no named properties (`Record<string, T>`). */
export function isFreeForm(type: ts.Type): boolean {
  if (type.flags & ts.TypeFlags.Unknown) return true;
  const object = single(type);
  return !!object && !!(object.flags & ts.TypeFlags.Object) && object.getProperties().length === 0 && object.getStringIndexType() !== undefined;
}

/** An array of free-form objects (`Array<Record<string, unknown>>`). */
export function isFreeFormArray(type: ts.Type, checker: ts.TypeChecker): boolean {
  const element = arrayElement(type, checker);
  return element !== undefined && isFreeForm(element);
}

export function isString(type: ts.Type): boolean {
  const types = presentMembers(type);
  return types.length > 0 && types.every((t) => !!(t.flags & ts.TypeFlags.String));
}

/** A number or string constant, or the source of a regular expression constant; undefined for anything else. */
export function constantValue(expression: ts.Expression, checker: ts.TypeChecker): string | number | undefined {
  const type = checker.getTypeAtLocation(expression);
  if (type.isNumberLiteral() || type.isStringLiteral()) return type.value;
  if (ts.isRegularExpressionLiteral(expression)) return regexSource(expression);
  let symbol = checker.getSymbolAtLocation(expression);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const declaration = symbol?.valueDeclaration;
  if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer && ts.isRegularExpressionLiteral(declaration.initializer)) {
    return regexSource(declaration.initializer);
  }
  return undefined;
}

/** The inline object type of `{ … }` or `{ … } | null`. */
export function inlineTypeLiteral(node: ts.TypeNode): ts.TypeLiteralNode | undefined {
  if (ts.isTypeLiteralNode(node)) return node;
  if (!ts.isUnionTypeNode(node)) return undefined;
  const types = node.types.filter((t) => !(ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword) && t.kind !== ts.SyntaxKind.UndefinedKeyword);
  return types.length === 1 && ts.isTypeLiteralNode(types[0]) ? types[0] : undefined;
}

/** The members of the type other than `null` and `undefined` (optional properties carry `undefined`). */
function presentMembers(type: ts.Type): ts.Type[] {
  return members(type).filter((t) => !(t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)));
}

/** The one type of `T`, `T | null` or `T | undefined`. */
function single(type: ts.Type): ts.Type | undefined {
  const types = presentMembers(type);
  return types.length === 1 ? types[0] : undefined;
}

function arrayElement(type: ts.Type, checker: ts.TypeChecker): ts.Type | undefined {
  const array = single(type);
  return array && checker.isArrayType(array) ? checker.getTypeArguments(array as ts.TypeReference)[0] : undefined;
}

function members(type: ts.Type): ts.Type[] {
  return type.isUnion() ? [...type.types] : [type];
}

function regexSource(regex: ts.RegularExpressionLiteral): string {
  return regex.text.slice(1, regex.text.lastIndexOf('/'));
}
