import {
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  parseDocument,
  type Document,
  type Node as YamlNode,
  type YAMLMap,
} from 'yaml';
import { MATCHER_TAGS, matcherFromTag } from './matchers.js';

/** A place in a scenario file, 1-based, as editors and `file:line:col` links count. */
export interface Location {
  readonly file: string;
  readonly line: number;
  readonly col: number;
}

/** Where each value of a parsed file came from, by JSON pointer (`/steps/3/request/path`). */
export class SourceMap {
  private readonly values = new Map<string, { line: number; col: number }>();
  private readonly keys = new Map<string, { line: number; col: number }>();

  constructor(readonly file: string) {}

  setValue(pointer: string, line: number, col: number): void {
    this.values.set(pointer, { line, col });
  }

  setKey(pointer: string, line: number, col: number): void {
    this.keys.set(pointer, { line, col });
  }

  /** The value at the pointer, else its nearest ancestor that has a place. */
  at(pointer: string): Location {
    let p = pointer;
    for (;;) {
      const hit = this.values.get(p);
      if (hit !== undefined) return { file: this.file, ...hit };
      if (p === '') return { file: this.file, line: 1, col: 1 };
      p = p.slice(0, p.lastIndexOf('/'));
    }
  }

  /** The key of a property (for "unknown property" errors), else the value's place. */
  keyAt(pointer: string): Location {
    const hit = this.keys.get(pointer);
    return hit === undefined ? this.at(pointer) : { file: this.file, ...hit };
  }
}

export function pointerOf(parts: readonly (string | number)[]): string {
  return parts.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

export class SourceError extends Error {
  constructor(
    readonly location: Location,
    readonly reason: string,
  ) {
    super(`${location.file}:${location.line}:${location.col}: ${reason}`);
    this.name = 'SourceError';
  }
}

export interface ParsedSource {
  readonly data: unknown;
  readonly map: SourceMap;
}

/** Most bytes of one scenario file: a limit, not a guess at typical sizes (1000-step files are ~100 kB). */
export const SCENARIO_FILE_BYTES_MAX = 8 * 1024 * 1024;
const NESTING_MAX = 200;

/**
 * A YAML (or JSON, which YAML 1.2 reads) scenario as plain data plus a source map. Matcher tags
 * (`!decimal 1.1`) become their JSON object form (`{"$decimal": "1.1"}`), so YAML and JSON files
 * reach the schema and the runner in one shape. Syntax errors and unknown tags throw SourceError.
 */
export function parseScenarioText(text: string, file: string): ParsedSource {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, version: '1.2', schema: 'core' });
  const map = new SourceMap(file);
  const place = (offset: number): Location => {
    const { line, col } = lineCounter.linePos(offset);
    return { file, line, col };
  };
  const firstError = doc.errors[0];
  if (firstError !== undefined) {
    const at = place(firstError.pos[0]);
    const line = text.split('\n')[at.line - 1] ?? '';
    const hint =
      /flow/i.test(firstError.message) && /[{[]/.test(line)
        ? ' (inside { } or [ ], quote strings that contain ${...}, brackets or commas: "${name}", "body.list[0].id")'
        : '';
    throw new SourceError(at, `YAML: ${firstError.message.split('\n')[0] ?? firstError.message}${hint}`);
  }
  for (const warning of doc.warnings) {
    const tag = warning.code === 'TAG_RESOLVE_FAILED' ? /Unresolved tag: (\S+)/.exec(warning.message)?.[1] : undefined;
    if (tag !== undefined && MATCHER_TAGS.has(tag)) continue;
    if (tag !== undefined) throw new SourceError(place(warning.pos[0]), `unknown tag ${tag}; matchers are ${[...MATCHER_TAGS].join(', ')}`);
    throw new SourceError(place(warning.pos[0]), `YAML: ${warning.message.split('\n')[0] ?? warning.message}`);
  }
  if (doc.contents === null) throw new SourceError(place(0), 'the file is empty');
  const data = convert(doc, doc.contents as YamlNode, [], map, place, 0);
  return { data, map };
}

/** A YAML mapping as a plain object, each key's and value's place recorded in the source map. */
function convertMap(
  doc: Document,
  node: YAMLMap,
  path: (string | number)[],
  map: SourceMap,
  place: (offset: number) => Location,
  depth: number,
): Record<string, unknown> {
  const pointer = pointerOf(path);
  const out: Record<string, unknown> = {};
  for (const pair of node.items) {
    if (!isPair(pair)) continue;
    const keyNode = pair.key as YamlNode | null;
    const key = keyNode !== null && isScalar(keyNode) ? keyNode.value : undefined;
    if (typeof key !== 'string' && typeof key !== 'number' && typeof key !== 'boolean') {
      const at = keyNode?.range ? place(keyNode.range[0]) : map.at(pointer);
      throw new SourceError(at, 'keys must be plain strings');
    }
    const name = String(key);
    const childPath = [...path, name];
    if (keyNode?.range) {
      const at = place(keyNode.range[0]);
      map.setKey(pointerOf(childPath), at.line, at.col);
    }
    Object.defineProperty(out, name, {
      value: convert(doc, pair.value as YamlNode | null, childPath, map, place, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    // A key with no value (`key:`) has no node of its own: point at the key.
    if (pair.value === null && keyNode?.range) {
      const at = place(keyNode.range[0]);
      map.setValue(pointerOf(childPath), at.line, at.col);
    }
  }
  return out;
}

function convert(
  doc: Document,
  node: YamlNode | null,
  path: (string | number)[],
  map: SourceMap,
  place: (offset: number) => Location,
  depth: number,
): unknown {
  if (node === null) return null;
  const pointer = pointerOf(path);
  if (node.range) {
    const at = place(node.range[0]);
    map.setValue(pointer, at.line, at.col);
  }
  if (depth > NESTING_MAX) throw new SourceError(map.at(pointer), `nesting deeper than ${NESTING_MAX}`);
  if (isAlias(node)) {
    const target = node.resolve(doc);
    if (target === undefined) throw new SourceError(map.at(pointer), `unknown alias *${node.source}`);
    return convert(doc, target as YamlNode, path, map, place, depth + 1);
  }
  const tag = node.tag;
  const matcher = tag !== undefined && MATCHER_TAGS.has(tag);
  if (tag !== undefined && !matcher && !tag.startsWith('tag:yaml.org,2002:')) {
    throw new SourceError(map.at(pointer), `unknown tag ${tag}; matchers are ${[...MATCHER_TAGS].join(', ')}`);
  }
  let value: unknown;
  if (isScalar(node)) {
    value = node.value;
    if (matcher && typeof value === 'string' && value === '' && node.source === '') value = null;
  } else if (isMap(node)) {
    value = convertMap(doc, node, path, map, place, depth);
  } else if (isSeq(node)) {
    value = node.items.map((item, i) => convert(doc, item as YamlNode | null, [...path, i], map, place, depth + 1));
  } else {
    throw new SourceError(map.at(pointer), 'unsupported YAML node');
  }
  if (!matcher) return value;
  try {
    return matcherFromTag(tag as string, value);
  } catch (err) {
    throw new SourceError(map.at(pointer), (err as Error).message);
  }
}
