/** snappyjs ships no types (same as loadtests/runner/snappyjs.d.ts, for the root tsconfig which does not include loadtests). */
declare module 'snappyjs' {
  export function compress(input: Uint8Array): Uint8Array;
  export function uncompress(input: Uint8Array): Uint8Array;
}
