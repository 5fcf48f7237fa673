import path from 'node:path';

/** A request path's file, or why it names none: 400 for a path that is no text, 403 for one leaving the root. */
export type ResolvedPath = { file: string } | { status: 400 | 403; why: string };

/**
 * Maps a request path to a file under `root`, or refuses it: a path that is not percent-encoded UTF-8 (a lone
 * `%`, `%zz`, `%ff`) is malformed (400), and one that is not a plain file path inside the root (`..` segments,
 * encoded slashes or NUL bytes) is refused (403). The URL is the only thing refused: symlinks inside the data
 * folder are followed, so a user may link tile folders in. A backslash is refused only where it separates paths
 * (Windows); on POSIX it is a letter a file name may hold.
 */
export function resolveFilePath(root: string, requestPath: string): ResolvedPath {
  let decoded: string;
  try {
    decoded = decodeURIComponent(requestPath);
  } catch {
    return { status: 400, why: 'the path is not percent-encoded UTF-8' };
  }
  const outside = { status: 403, why: 'path outside the data folder' } as const;
  if (decoded.includes('\0') || (path.sep === '\\' && decoded.includes('\\'))) return outside;
  const segments = decoded.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment === '..' || segment === '.')) return outside;
  // An encoded "/" would otherwise turn one URL segment into two path segments.
  if (requestPath.split('/').some((raw) => /%2f/i.test(raw))) return outside;
  const absoluteRoot = path.resolve(root);
  const filePath = path.resolve(absoluteRoot, ...segments);
  if (filePath !== absoluteRoot && !filePath.startsWith(absoluteRoot + path.sep)) return outside;
  return { file: filePath };
}

const CONTENT_TYPES: Record<string, string> = {
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
};

export function contentTypeOf(filePath: string): string {
  return CONTENT_TYPES[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}
