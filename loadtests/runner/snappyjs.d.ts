/** snappyjs ships no types; the one function this runner uses. */
declare module 'snappyjs' {
  export function compress(input: Uint8Array): Uint8Array;
}
