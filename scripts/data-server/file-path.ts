import path from 'node:path';

/**
 * Maps a request path to a file under `root`, or `null` when the path is not a plain file path
 * inside it (`..` segments, encoded slashes or NUL bytes, undecodable escapes). The URL is the only
 * thing refused: symlinks inside the data folder are followed, so a user may link tile folders in.
 */
export function resolveFilePath(root: string, requestPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(requestPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment === '..' || segment === '.')) return null;
  // An encoded "/" would otherwise turn one URL segment into two path segments.
  if (requestPath.split('/').some((raw) => /%2f/i.test(raw))) return null;
  const absoluteRoot = path.resolve(root);
  const filePath = path.resolve(absoluteRoot, ...segments);
  if (filePath !== absoluteRoot && !filePath.startsWith(absoluteRoot + path.sep)) return null;
  return filePath;
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
