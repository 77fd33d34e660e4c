import path from 'node:path';
import { readdirSync } from 'node:fs';
import ts from 'typescript';

/** The generated file: docs/internals/events.md. */
export const EVENTS_CATALOGUE = 'docs/internals/events.md';

interface EventEntry {
  type: string;
  file: string;
  description: string;
  fields: Field[];
}
interface Field {
  name: string;
  type: string;
  optional: boolean;
  description: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

const docOf = (symbol: ts.Symbol | undefined, checker: ts.TypeChecker) =>
  symbol ? ts.displayPartsToString(symbol.getDocumentationComment(checker)).replace(/\s+/g, ' ').trim() : '';

/** The JSDoc written above a type alias (the event's own description). */
function aliasDoc(node: ts.Node, checker: ts.TypeChecker): string {
  const alias = ts.findAncestor(node, ts.isTypeAliasDeclaration);
  if (!alias) return '';
  return docOf(checker.getSymbolAtLocation(alias.name), checker);
}

/**
 * Every event type of every aggregate, read from the sources with the TypeScript compiler: each
 * `Event<'Type', Data>` (src/domain/decider.ts) with the fields of its data, their types and
 * their comments, and the shapes those fields name. Grouped by the file that declares them.
 */
export function eventsCatalogue(root: string): string {
  const files = sourceFiles(path.join(root, 'src'));
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    experimentalDecorators: true,
  });
  const checker = program.getTypeChecker();
  const deciderFile = path.join(root, 'src/domain/decider.ts');
  const events: EventEntry[] = [];
  const shapes = new Map<string, { file: string; description: string; fields: Field[] }>();
  const flags = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;

  /** Fields of an object type; named object shapes declared in src/ are collected to be listed once. */
  const fieldsOf = (type: ts.Type): Field[] =>
    checker.getPropertiesOfType(type).map((property) => {
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      const propertyType = checker.getTypeOfSymbol(property);
      noteShapes(propertyType);
      const written = declaration && ts.isPropertySignature(declaration) && declaration.type;
      return {
        name: property.name,
        type: written ? written.getText().replace(/\s+/g, ' ') : checker.typeToString(propertyType, undefined, flags),
        optional: (property.flags & ts.SymbolFlags.Optional) !== 0,
        description: docOf(property, checker),
      };
    });

  const noteShapes = (type: ts.Type): void => {
    for (const part of type.isUnion() ? type.types : [type]) {
      if (checker.isArrayType(part)) {
        noteShapes(checker.getTypeArguments(part as ts.TypeReference)[0]!);
        continue;
      }
      const symbol = part.aliasSymbol ?? part.getSymbol();
      const declaration = symbol?.declarations?.[0];
      if (!symbol || !declaration || !(part.flags & ts.TypeFlags.Object)) continue;
      const file = declaration.getSourceFile().fileName;
      if (!file.startsWith(path.join(root, 'src')) || symbol.name === '__type' || symbol.name === '__object') continue;
      if (shapes.has(symbol.name)) continue;
      shapes.set(symbol.name, { file: path.relative(root, file), description: docOf(symbol, checker), fields: [] });
      shapes.get(symbol.name)!.fields = fieldsOf(part);
    }
  };

  for (const file of program.getSourceFiles()) {
    if (!file.fileName.startsWith(path.join(root, 'src')) || file.isDeclarationFile) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isTypeReferenceNode(node) && node.typeArguments?.length === 2 && node.typeName.getText() === 'Event') {
        const target = checker.getSymbolAtLocation(node.typeName);
        const resolved = target && target.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(target) : target;
        const declared = resolved?.declarations?.[0]?.getSourceFile().fileName;
        const [typeArgument, dataArgument] = node.typeArguments;
        if (declared === deciderFile && typeArgument && dataArgument) {
          const names = checker.getTypeFromTypeNode(typeArgument);
          const literals = (names.isUnion() ? names.types : [names]).filter((t) => t.isStringLiteral());
          const data = checker.getTypeFromTypeNode(dataArgument);
          for (const literal of literals) {
            events.push({
              type: literal.value,
              file: path.relative(root, file.fileName),
              description: aliasDoc(node, checker),
              fields: fieldsOf(data),
            });
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  return render(events, shapes);
}

const cell = (text: string) => text.replace(/\|/g, '\\|');
const fieldTable = (fields: Field[]) => [
  '| Field | Type | Meaning |',
  '| --- | --- | --- |',
  ...fields.map(
    (f) => `| \`${f.name}\`${f.optional ? ' (optional)' : ''} | \`${cell(f.type)}\` | ${cell(f.description)} |`,
  ),
];

/** `documentAggregate` → `Document aggregate`. */
const groupTitle = (file: string) => {
  const words = path
    .basename(file, '.ts')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

function render(events: EventEntry[], shapes: Map<string, { file: string; description: string; fields: Field[] }>) {
  const byFile = new Map<string, EventEntry[]>();
  for (const event of events) byFile.set(event.file, [...(byFile.get(event.file) ?? []), event]);
  const files = [...byFile.keys()].sort();
  const out = [
    '# Events catalogue',
    '',
    '<!-- Generated by `npm run docs:generate` from the event types in src/ (`Event<Type, Data>`): edit the types, not this file. -->',
    '',
    'Every change is an event appended to a stream of the event store; read models, process managers and the',
    'audit views are computed from them. Each event is `{type, data}`: below, every type with the fields of its',
    '`data`, grouped by the file that declares it (its aggregate or process). Fields marked optional are absent from',
    'events recorded before they existed; the upcaster (`src/application/documents/documentUpcaster.ts`) gives old',
    'document events today’s shape when they are read.',
    '',
    `${events.length} event types:`,
    '',
  ];
  for (const file of files) {
    const anchor = groupTitle(file).toLowerCase().replace(/ /g, '-');
    out.push(
      `- [${groupTitle(file)}](#${anchor}): ${byFile
        .get(file)!
        .map((e) => `\`${e.type}\``)
        .join(', ')}`,
    );
  }
  out.push('');
  for (const file of files) {
    out.push(`## ${groupTitle(file)}`, '', `Declared in \`${file}\`.`, '');
    for (const event of byFile.get(file)!) {
      out.push(`### ${event.type}`, '');
      if (event.description) out.push(event.description, '');
      out.push(...fieldTable(event.fields), '');
    }
  }
  out.push('## Shapes used by the events', '', 'The named types the fields above refer to, with their own fields.', '');
  for (const name of [...shapes.keys()].sort()) {
    const shape = shapes.get(name)!;
    out.push(
      `### ${name}`,
      '',
      `Declared in \`${shape.file}\`.${shape.description ? ` ${shape.description}` : ''}`,
      '',
    );
    out.push(...fieldTable(shape.fields), '');
  }
  return out.join('\n');
}
