/** Types for Esri's `lerc` 3.0.0 decoder (plain JavaScript, no declarations of its own): the parts used here. */
declare module 'lerc' {
  namespace Lerc {
    type PixelArray =
      | Int8Array
      | Uint8Array
      | Int16Array
      | Uint16Array
      | Int32Array
      | Uint32Array
      | Float32Array
      | Float64Array;
    interface DecodedBlock {
      width: number;
      height: number;
      /** One typed array per band, width x height values each. */
      pixels: PixelArray[];
      /** U8/S8/U16/S16/U32/S32/F32/F64. */
      pixelType: string;
      /** 1 = valid, 0 = invalid, per pixel; absent (undefined) when the blob has no mask: every pixel valid. */
      mask?: Uint8Array | null;
    }
    function decode(input: ArrayBuffer, options?: { inputOffset?: number }): DecodedBlock;
  }
  export = Lerc;
}
