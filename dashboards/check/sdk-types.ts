// "Valid against the foundation SDK's schema": the npm SDK ships TypeScript types, not a JSON
// schema, so the generated JSON is type-checked against those types by the TypeScript compiler.
// Each file becomes an object literal assigned to the SDK's Dashboard type (with panel options and
// queries typed per panel type), so unknown keys, wrong types and bad enum values are errors.
import path from 'node:path';
import ts from 'typescript';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const VIRTUAL_FILE = path.join(REPO_ROOT, 'dashboards', 'check', '__generated_dashboards__.ts');

/** Types of the JSON form of SDK objects: methods dropped, string enums as their literal values. */
const PRELUDE = `
import type * as common from '@grafana/grafana-foundation-sdk/common';
import type * as dashboard from '@grafana/grafana-foundation-sdk/dashboard';
import type * as prometheus from '@grafana/grafana-foundation-sdk/prometheus';
import type * as table from '@grafana/grafana-foundation-sdk/table';
import type * as timeseries from '@grafana/grafana-foundation-sdk/timeseries';
type IsAny<T> = 0 extends 1 & T ? true : false;
type Fn = (...args: never[]) => unknown;
type Json<T> = IsAny<T> extends true ? any
  : T extends Fn ? never
  : T extends string ? \`\${T}\`
  : T extends number | boolean | null | undefined ? T
  : T extends readonly (infer U)[] ? Json<U>[]
  : T extends object ? { [K in keyof T as T[K] extends Fn ? never : K]: Json<T[K]> }
  : T;
type FieldConfigOf<Custom> = Omit<Json<dashboard.FieldConfigSource>, 'defaults'> & {
  defaults: Omit<Json<dashboard.FieldConfig>, 'custom'> & { custom?: Json<Custom> };
};
type PanelOf<Type extends string, Options, Custom, Target> =
  Omit<Json<dashboard.Panel>, 'type' | 'targets' | 'options' | 'fieldConfig'> &
  { type: Type; targets?: Target[]; options?: Json<Options>; fieldConfig?: FieldConfigOf<Custom> };
/** Grafana's JaegerQuery (the SDK has no Jaeger package). */
type JaegerTarget = {
  refId: string; hide?: boolean; datasource?: Json<common.DataSourceRef>;
  queryType?: 'search' | 'upload' | 'dependencyGraph'; service?: string; operation?: string; query?: string;
  tags?: string; minDuration?: string; maxDuration?: string; limit?: number;
};
type AnyPanel =
  | PanelOf<'timeseries', timeseries.Options, timeseries.FieldConfig, Json<prometheus.Dataquery>>
  | PanelOf<'table', table.Options, table.FieldConfig, JaegerTarget>
  | Json<dashboard.RowPanel>;
type DashboardJson = Omit<Json<dashboard.Dashboard>, 'panels'> & { panels?: AnyPanel[] };
`;

export interface TypeProblem {
  file: string;
  line: number;
  message: string;
}

/** Type-check each JSON text; problems point at the line of the JSON file. */
export const checkAgainstSdkTypes = (files: { file: string; text: string }[]): TypeProblem[] => {
  const preludeLines = PRELUDE.split('\n').length;
  const starts: { file: string; line: number }[] = [];
  let source = PRELUDE;
  files.forEach(({ file, text }, i) => {
    starts.push({ file, line: source.split('\n').length });
    source += `export const dashboard${i}: DashboardJson = ${text.trim()};\n`;
  });
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (f) => (path.resolve(f) === VIRTUAL_FILE ? source : readFile(f));
  host.fileExists = (f) => path.resolve(f) === VIRTUAL_FILE || fileExists(f);
  host.getSourceFile = (f, lang, ...rest) =>
    path.resolve(f) === VIRTUAL_FILE ? ts.createSourceFile(f, source, lang) : getSourceFile(f, lang, ...rest);
  const program = ts.createProgram([VIRTUAL_FILE], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : 0;
    const owner = [...starts].reverse().find((s) => s.line <= line);
    return {
      file: owner && line >= preludeLines ? owner.file : 'prelude',
      line: owner ? line - owner.line + 1 : line + 1,
      message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    };
  });
};
