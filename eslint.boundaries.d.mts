// Types of eslint.boundaries.mjs, for the test that lints snippets against it.
import type { Linter } from 'eslint';

export declare const libraryBoundary: Linter.Config;
export declare const handlerBoundary: Linter.Config;
export declare const telemetryBoundary: Linter.Config;
export declare const boundaries: Linter.Config[];
