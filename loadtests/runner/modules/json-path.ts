/**
 * res.json(selector)'s selector: k6 reads it as a GJSON path (js/modules/k6/http/response.go, tidwall/gjson).
 * npm has no maintained GJSON implementation, so this takes GJSON's common subset with GJSON's answers: keys
 * (`name.last`), array indexes (`children.1`), `#` (an array's length), `#.` (the rest of the path over each
 * element, `friends.#.first`) and `\` escapes (`fav\.movie`). The rest of GJSON's syntax is refused by name,
 * so a selector never answers undefined only because the runner does not read it.
 */

/** What GJSON syntax a path part uses that this subset does not take, if any. */
function unsupported(part: string, index: number): string | undefined {
  if (/^#[(]/.test(part)) return 'query';
  if (part.startsWith('@')) return 'modifier';
  if (index === 0 && (part.startsWith('{') || part.startsWith('['))) return 'multipath';
  return undefined;
}

/** Splits a path at unescaped dots, unescaping the rest; throws on syntax outside the subset. */
function parsePath(path: string): string[] {
  const refuse = (kind: string) => {
    throw new Error(
      `res.json("${path}"): GJSON ${kind} syntax is not supported by this runner ` +
        '(supported: keys, array indexes, # counts, #. projections, \\ escapes)',
    );
  };
  if (path.startsWith('..')) refuse('JSON Lines');
  const parts: string[] = [];
  let part = '';
  let raw = '';
  const close = () => {
    const kind = unsupported(raw, parts.length);
    if (kind) refuse(kind);
    parts.push(part);
    part = '';
    raw = '';
  };
  for (let i = 0; i < path.length; i++) {
    const c = path[i];
    if (c === '\\' && i + 1 < path.length) {
      part += path[++i];
      raw += `\\${path[i]}`;
    } else if (c === '.') close();
    else {
      if (c === '*' || c === '?') refuse('wildcard');
      if (c === '|') refuse('pipe');
      part += c;
      raw += c;
    }
  }
  close();
  return parts;
}

function select(value: unknown, parts: string[]): unknown {
  if (parts.length === 0) return value;
  const [head, ...rest] = parts;
  if (Array.isArray(value)) {
    if (head === '#') {
      if (rest.length === 0) return value.length;
      return value.map((element) => select(element, rest)).filter((v) => v !== undefined);
    }
    return /^\d+$/.test(head) ? select(value[Number(head)], rest) : undefined;
  }
  if (value !== null && typeof value === 'object' && Object.hasOwn(value, head))
    return select((value as Record<string, unknown>)[head], rest);
  return undefined;
}

/** The value at a GJSON `path` in a parsed JSON document, or undefined where it does not exist. */
export function selectJsonPath(document: unknown, path: string): unknown {
  return select(document, parsePath(path));
}
