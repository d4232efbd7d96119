import sharp from 'sharp';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf: Buffer) => {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

/** A small PNG whose header claims `width` x `height` pixels: decoding it would need that much memory. */
export async function pixelBomb(width: number, height: number): Promise<Buffer> {
  const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#888' } })
    .png()
    .toBuffer();
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29); // the IHDR chunk's CRC, so the header reads as valid
  return png;
}

/** A PNG whose header and chunk CRCs are valid but whose IDAT (the compressed pixels) does not inflate. */
export async function brokenImageData(): Promise<Buffer> {
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3a6' } })
    .png()
    .toBuffer();
  const at = png.indexOf('IDAT');
  const length = png.readUInt32BE(at - 4);
  png.fill(0xff, at + 4 + 2, at + 4 + length); // past the zlib header: garbage deflate data
  png.writeUInt32BE(crc32(png.subarray(at, at + 4 + length)), at + 4 + length);
  return png;
}
