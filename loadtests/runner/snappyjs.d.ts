/** snappyjs ships no types: the two functions used here (the runner compresses, its tests decompress). */
declare module 'snappyjs' {
  export function compress(input: Uint8Array): Uint8Array;
  export function uncompress(input: Uint8Array): Uint8Array;
}
