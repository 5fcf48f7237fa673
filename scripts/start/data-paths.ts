/**
 * npm start serves DATA_DIR through its data layer: a config path that leads out of it (`../dem/`) was asked of
 * the data layer as a URL, which folds the `..` away, so it answered "not found" (or another file of the same
 * name in DATA_DIR). Such paths are named before anything starts.
 */
import path from 'node:path';
import { loadApiConfig, readGeoidPaths } from '../../layers/elevation';

/** One line per relative dataset or geoid path of `configPath` that leads out of `dataDir`. */
export function pathsOutsideDataDir(configPath: string, dataDir: string): string[] {
  const root = path.resolve(dataDir);
  const named = [
    ...loadApiConfig(configPath).datasets.flatMap((d) =>
      d.path === null ? [] : [[`dataset '${d.name}'`, d.path]],
    ),
    ...Object.entries(readGeoidPaths(configPath)).map(([geoid, p]) => [`geoid grid ${geoid}`, p]),
  ];
  const leaves = (relative: string) => relative === '..' || relative.startsWith(`..${path.sep}`);
  return named
    .filter(([, p]) => !/^[a-z][a-z0-9+.-]*:\/\//i.test(p) && !path.isAbsolute(p))
    .flatMap(([what, p]) => {
      const inside = path.relative(root, path.resolve(root, p));
      if (leaves(inside)) return [`${what}: path '${p}' leads out of DATA_DIR ${root}`];
      // Out and back in (`../data/srtm/` with DATA_DIR …/data): a folder reads it, but a URL cannot climb above
      // the data layer's root, so it was asked as /data/srtm/ and "not found".
      if (leaves(path.normalize(p)))
        return [`${what}: path '${p}' leads out of DATA_DIR ${root} and back in: write it as '${inside}'`];
      return [];
    });
}
