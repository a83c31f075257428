package dev.georesolver.support;

import java.io.ByteArrayOutputStream;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Gzip streams that inflate to far more than they weigh, built in milliseconds: one mebibyte of a
 * repeated byte is deflated once with a full flush (so the segment refers to nothing before it),
 * and that segment is repeated; then a final empty block and a correct trailer. 512 MiB inflated
 * weighs about half a megabyte.
 */
public final class GzipBomb {

  private static final int MIB = 1024 * 1024;

  private GzipBomb() {}

  /** A valid gzip member that inflates to {@code mebibytes} MiB of {@code fill}. */
  public static byte[] of(int mebibytes, byte fill) {
    byte[] block = new byte[MIB];
    java.util.Arrays.fill(block, fill);
    Deflater d = new Deflater(Deflater.BEST_COMPRESSION, true);
    d.setInput(block);
    byte[] buf = new byte[64 * 1024];
    ByteArrayOutputStream segment = new ByteArrayOutputStream();
    int n;
    while ((n = d.deflate(buf, 0, buf.length, Deflater.FULL_FLUSH)) > 0) {
      segment.write(buf, 0, n);
    }
    d.end();
    byte[] s = segment.toByteArray();
    CRC32 crc = new CRC32();
    ByteArrayOutputStream out = new ByteArrayOutputStream(10 + s.length * mebibytes + 10);
    out.write(new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff}, 0, 10);
    for (int i = 0; i < mebibytes; i++) {
      out.write(s, 0, s.length);
      crc.update(block);
    }
    out.write(new byte[] {3, 0}, 0, 2);
    writeLe32(out, crc.getValue());
    writeLe32(out, (long) mebibytes * MIB);
    return out.toByteArray();
  }

  /** 512 MiB of zeros, as the provider sent it. */
  public static byte[] halfGigabyte() {
    return of(512, (byte) 0);
  }

  private static void writeLe32(ByteArrayOutputStream out, long v) {
    for (int i = 0; i < 4; i++) {
      out.write((int) (v >>> (8 * i)) & 0xff);
    }
  }
}
