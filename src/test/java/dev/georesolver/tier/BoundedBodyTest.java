package dev.georesolver.tier;

import dev.georesolver.support.GzipBomb;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A provider body is held to its cap as it arrives, identity or compressed, and compressed ones are checked. */
class BoundedBodyTest {

  private static final long CAP = 64 * 1024;
  private static final String JSON = "{\"x\": 2.3522, \"y\": 48.8566, \"crs\": \"EPSG:4326\", \"confidence\": 0.9, \"label\": \"Paris\"}";

  private static byte[] gzip(byte[] b) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream g = new GZIPOutputStream(out)) {
      g.write(b);
    }
    return out.toByteArray();
  }

  private static byte[] deflate(byte[] b, boolean raw) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (DeflaterOutputStream d = new DeflaterOutputStream(out, new Deflater(Deflater.DEFAULT_COMPRESSION, raw))) {
      d.write(b);
    }
    return out.toByteArray();
  }

  /** Feeds {@code bytes} in chunks of {@code size} and returns the body. */
  private static Buffer read(BoundedBody body, byte[] bytes, int size) throws BodyRefusedException {
    try {
      for (int i = 0; i < bytes.length; i += size) {
        body.accept(Buffer.buffer(Arrays.copyOfRange(bytes, i, Math.min(bytes.length, i + size))));
      }
      return body.finish();
    } finally {
      body.close();
    }
  }

  @Test
  @DisplayName("an identity body in one chunk is that chunk: no copy on the pass-through path")
  void shouldKeepASingleChunkAsItIs() throws Exception {
    Buffer chunk = Buffer.buffer(JSON);
    BoundedBody body = BoundedBody.of(null, JSON.length(), CAP);
    body.accept(chunk);
    assertThat(body.finish()).isSameAs(chunk);
  }

  @Test
  void shouldGatherAnIdentityBodyInSeveralChunks() throws Exception {
    byte[] b = JSON.getBytes(StandardCharsets.UTF_8);
    assertThat(read(BoundedBody.of("identity", -1, CAP), b, 7).toString()).isEqualTo(JSON);
    assertThat(read(BoundedBody.of(null, b.length, CAP), b, 3).toString()).isEqualTo(JSON);
    assertThat(BoundedBody.of(null, -1, CAP).finish().length()).as("an empty body").isZero();
  }

  @Test
  @DisplayName("a chunked or read-until-close body is refused the moment it passes the cap")
  void shouldRefuseAnEndlessIdentityBodyAtTheCap() throws Exception {
    BoundedBody body = BoundedBody.of(null, -1, CAP);
    Buffer chunk = Buffer.buffer(new byte[8192]);
    long accepted = 0;
    try {
      while (true) {
        body.accept(chunk);
        accepted += chunk.length();
      }
    } catch (BodyRefusedException e) {
      assertThat(e).hasMessage("body over " + CAP + " bytes");
    }
    assertThat(accepted).isEqualTo(CAP);
  }

  @ParameterizedTest(name = "chunks of {0} bytes")
  @ValueSource(ints = {1, 3, 10, 4096})
  @DisplayName("gzip is inflated chunk by chunk, however the chunks fall, and its trailer checked")
  void shouldInflateGzipInAnyChunking(int size) throws Exception {
    byte[] z = gzip(JSON.getBytes(StandardCharsets.UTF_8));
    assertThat(read(BoundedBody.of("gzip", z.length, CAP), z, size).toString()).isEqualTo(JSON);
    assertThat(read(BoundedBody.of("X-GZIP", -1, CAP), z, size).toString()).isEqualTo(JSON);
  }

  @Test
  @DisplayName("a gzip header with every optional field (extra, name, comment, header CRC) is read past")
  void shouldReadEveryOptionalGzipHeaderField() throws Exception {
    byte[] plain = gzip(JSON.getBytes(StandardCharsets.UTF_8));
    ByteArrayOutputStream z = new ByteArrayOutputStream();
    z.write(new byte[] {0x1f, (byte) 0x8b, 8, 2 | 4 | 8 | 16, 0, 0, 0, 0, 0, 3});
    z.write(new byte[] {3, 0, 'a', 'b', 'c'});
    z.write("name.json\0".getBytes(StandardCharsets.US_ASCII));
    z.write("a comment\0".getBytes(StandardCharsets.US_ASCII));
    java.util.zip.CRC32 headerCrc = new java.util.zip.CRC32();
    headerCrc.update(z.toByteArray());
    z.write(new byte[] {(byte) headerCrc.getValue(), (byte) (headerCrc.getValue() >>> 8)});
    z.write(plain, 10, plain.length - 10);
    byte[] b = z.toByteArray();
    assertThat(new String(new GZIPInputStream(new java.io.ByteArrayInputStream(b)).readAllBytes(), StandardCharsets.UTF_8))
        .as("the JDK reads it too").isEqualTo(JSON);
    for (int size : new int[] {1, 2, 5, 1000}) {
      assertThat(read(BoundedBody.of("gzip", -1, CAP), b, size).toString()).isEqualTo(JSON);
    }
  }

  @Test
  @DisplayName("deflate is read as zlib, and as raw deflate as some servers send it")
  void shouldInflateZlibAndRawDeflate() throws Exception {
    byte[] b = JSON.getBytes(StandardCharsets.UTF_8);
    for (boolean raw : new boolean[] {false, true}) {
      for (int size : new int[] {1, 2, 64}) {
        assertThat(read(BoundedBody.of("deflate", -1, CAP), deflate(b, raw), size).toString()).isEqualTo(JSON);
      }
    }
  }

  @Test
  @DisplayName("a gzip bomb (512 MiB of zeros in half a megabyte) is refused at the cap, having inflated no more than the cap")
  void shouldStopAGzipBombAtTheCap() throws Exception {
    byte[] bomb = GzipBomb.halfGigabyte();
    assertThat(bomb.length).as("the bomb weighs").isLessThan(1024 * 1024);
    long cap = HttpAttempt.MAX_BODY_BYTES;
    BoundedBody body = BoundedBody.of("gzip", bomb.length, cap);
    int fed = 0;
    try {
      for (; fed < bomb.length; fed += 8192) {
        body.accept(Buffer.buffer(Arrays.copyOfRange(bomb, fed, Math.min(bomb.length, fed + 8192))));
      }
      throw new AssertionError("the bomb was read whole");
    } catch (BodyRefusedException e) {
      assertThat(e).hasMessage("body over " + cap + " bytes once inflated");
    } finally {
      body.close();
    }
    assertThat(fed).as("refused within the first few kilobytes of the wire").isLessThan(64 * 1024);
  }

  @Test
  @DisplayName("the bomb builder makes a valid stream: the JDK inflates it to its full size")
  void shouldBuildAValidBomb() throws Exception {
    byte[] small = GzipBomb.of(3, (byte) 'a');
    byte[] inflated = new GZIPInputStream(new java.io.ByteArrayInputStream(small)).readAllBytes();
    assertThat(inflated).hasSize(3 * 1024 * 1024);
    assertThat(read(BoundedBody.of("gzip", -1, 4L * 1024 * 1024), small, 4096).length()).isEqualTo(3 * 1024 * 1024);
  }

  @Test
  @DisplayName("compressed bytes on the wire count against the cap too")
  void shouldCountCompressedBytesOnTheWire() throws Exception {
    byte[] random = new byte[(int) CAP * 2];
    new java.util.Random(7).nextBytes(random);
    byte[] z = gzip(random);
    assertThatThrownBy(() -> read(BoundedBody.of("gzip", -1, CAP), z, 8192)).isInstanceOf(BodyRefusedException.class)
        .hasMessageStartingWith("body over " + CAP + " bytes");
  }

  @Test
  @DisplayName("a truncated stream, a wrong checksum or bytes that are not gzip are refused")
  void shouldRefuseBrokenStreams() throws Exception {
    byte[] z = gzip(JSON.getBytes(StandardCharsets.UTF_8));
    assertThatThrownBy(() -> read(BoundedBody.of("gzip", -1, CAP), Arrays.copyOf(z, z.length - 3), 16))
        .isInstanceOf(BodyRefusedException.class).hasMessage("compressed body ends early");
    byte[] badCrc = z.clone();
    badCrc[badCrc.length - 8] ^= 1;
    assertThatThrownBy(() -> read(BoundedBody.of("gzip", -1, CAP), badCrc, 16))
        .isInstanceOf(BodyRefusedException.class).hasMessageContaining("checksum");
    assertThatThrownBy(() -> read(BoundedBody.of("gzip", -1, CAP), JSON.getBytes(StandardCharsets.UTF_8), 16))
        .isInstanceOf(BodyRefusedException.class).hasMessageContaining("not a gzip stream");
    byte[] garbage = new byte[200];
    Arrays.fill(garbage, (byte) 0xff);
    assertThatThrownBy(() -> read(BoundedBody.of("deflate", -1, CAP), garbage, 16)).isInstanceOf(BodyRefusedException.class);
  }

  @ParameterizedTest(name = "Content-Encoding: {0}")
  @ValueSource(strings = {"br", "zstd", "compress", "gzip, gzip", "deflate, gzip", "x-evil\r\nSet-Cookie"})
  @DisplayName("encodings not read here, and stacked ones, are refused before a byte is read")
  void shouldRefuseOtherEncodings(String coding) {
    assertThatThrownBy(() -> BoundedBody.of(coding, -1, CAP)).isInstanceOf(BodyRefusedException.class)
        .hasMessageStartingWith("content-encoding not supported: ").hasMessageNotContaining("\r");
  }

  @Test
  void shouldReadIdentityListedBesideOneCoding() throws Exception {
    byte[] z = gzip(JSON.getBytes(StandardCharsets.UTF_8));
    assertThat(read(BoundedBody.of("identity, gzip", -1, CAP), z, 100).toString()).isEqualTo(JSON);
    assertThat(read(BoundedBody.of(" IDENTITY ", -1, CAP), JSON.getBytes(StandardCharsets.UTF_8), 100).toString()).isEqualTo(JSON);
  }
}
