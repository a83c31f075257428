package dev.georesolver.shadow;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The durable form: exact round trips, and corrupt input refused cleanly, naming the problem. */
class DurableFormTest {

  private static ShadowTable table(long seed, int samples) {
    SplittableRandom r = new SplittableRandom(seed);
    ShadowTable t = new ShadowTable();
    for (int i = 0; i < samples; i++) {
      t.record(Samples.random(i, r));
    }
    return t;
  }

  @Test
  @DisplayName("a table and a pair read back equal to what was written, as bytes and as Base64")
  void shouldRoundTripExactly() {
    ShadowTable t = table(1, 500);

    assertThat(ShadowTable.decode(t.encode())).isEqualTo(t);
    assertThat(ShadowTable.decode(t.encodeToString())).isEqualTo(t);
    assertThat(ShadowTable.decode(t.encode()).summaries()).isEqualTo(t.summaries());
    PairStats one = t.get(t.keys().iterator().next()).orElseThrow();
    assertThat(PairStats.decode(one.encode())).isEqualTo(one);
    assertThat(PairStats.decode(one.encodeToString())).isEqualTo(one);
    assertThat(ShadowTable.decode(new ShadowTable().encode())).isEqualTo(new ShadowTable());
    assertThat(PairStats.decode(new PairStats().encode())).isEqualTo(new PairStats());
  }

  @Test
  @DisplayName("extremes survive: zero metres, the antipode, a ten-minute latency, a zero latency")
  void shouldRoundTripTheRangesEnds() {
    ShadowTable t = new ShadowTable();
    LonLat p = new LonLat(0, 0);
    t.record(Samples.sample(1, "a", "b", "describe", p, p, 0, 0));
    t.record(Samples.sample(2, "a", "b", "describe", p, new LonLat(180, 0), 3_600_000, 600_000));

    ShadowTable back = ShadowTable.decode(t.encode());

    assertThat(back).isEqualTo(t);
    assertThat(back.summaries()).isEqualTo(t.summaries());
  }

  @Test
  @DisplayName("the form is compact: a pair of a thousand widely spread samples is under four kilobytes")
  void shouldBeCompact() {
    ShadowTable t = new ShadowTable();
    SplittableRandom r = new SplittableRandom(3);
    for (int i = 0; i < 1_000; i++) {
      LonLat p = Samples.anywhere(r);
      t.record(Samples.sample(i, "a", "b", "describe", p, Samples.east(p, r.nextDouble(0, 400)), r.nextDouble(100, 900),
          r.nextDouble(50, 400)));
    }

    assertThat(t.encode().length).isLessThan(4_096);
  }

  @Test
  @DisplayName("every truncation of a valid table is refused with a ShadowFormatException, never another failure")
  void shouldRefuseEveryTruncation() {
    byte[] full = table(4, 60).encode();
    for (int len = 0; len < full.length; len++) {
      byte[] cut = Arrays.copyOf(full, len);
      assertThatThrownBy(() -> ShadowTable.decode(cut)).as("%s of %s bytes", len, full.length)
          .isInstanceOf(ShadowFormatException.class);
    }
  }

  @Test
  @DisplayName("any single corrupted byte is refused cleanly or reads as some other consistent table")
  void shouldNeverFailUncleanlyOnACorruptedByte() {
    byte[] full = table(5, 60).encode();
    SplittableRandom r = new SplittableRandom(5);
    for (int i = 0; i < full.length; i++) {
      for (int k = 0; k < 4; k++) {
        byte[] bad = full.clone();
        bad[i] = (byte) (bad[i] ^ (1 + r.nextInt(255)));
        try {
          ShadowTable t = ShadowTable.decode(bad);
          // A corruption that still reads (a time or a count moved consistently) is a valid table.
          assertThat(ShadowTable.decode(t.encode())).isEqualTo(t);
        } catch (ShadowFormatException expected) {
          assertThat(expected.getMessage()).isNotBlank();
        }
      }
    }
  }

  @Test
  @DisplayName("random bytes are refused cleanly")
  void shouldRefuseRandomBytes() {
    SplittableRandom r = new SplittableRandom(6);
    for (int i = 0; i < 2_000; i++) {
      byte[] junk = new byte[r.nextInt(200)];
      for (int j = 0; j < junk.length; j++) {
        junk[j] = (byte) r.nextInt(256);
      }
      if (junk.length > 1 && r.nextBoolean()) {
        junk[0] = 1;
        junk[1] = 'T';
      }
      try {
        ShadowTable.decode(junk);
      } catch (ShadowFormatException expected) {
        // the only acceptable failure
      }
    }
  }

  @Test
  @DisplayName("a wrong version, another kind, trailing bytes and bad Base64 are each named")
  void shouldNameTheEnvelopesProblems() {
    byte[] ok = table(7, 20).encode();
    byte[] v2 = ok.clone();
    v2[0] = 2;
    assertThatThrownBy(() -> ShadowTable.decode(v2)).isInstanceOf(ShadowFormatException.class).hasMessageContaining("version 2");
    byte[] pair = new PairStats().encode();
    assertThatThrownBy(() -> ShadowTable.decode(pair)).isInstanceOf(ShadowFormatException.class).hasMessageContaining("something else");
    byte[] longer = Arrays.copyOf(ok, ok.length + 1);
    assertThatThrownBy(() -> ShadowTable.decode(longer)).isInstanceOf(ShadowFormatException.class).hasMessageContaining("follow the end");
    assertThatThrownBy(() -> ShadowTable.decode("not base64 !!")).isInstanceOf(ShadowFormatException.class).hasMessageContaining("Base64");
    assertThatThrownBy(() -> ShadowTable.decode(new byte[0])).isInstanceOf(ShadowFormatException.class).hasMessageContaining("truncated");
  }

  @Test
  @DisplayName("claimed sizes are bounded before anything is allocated: pairs, buckets, names, input length")
  void shouldBoundEverySizeBeforeAllocating() {
    assertThatThrownBy(() -> ShadowTable.decode(bytes(1, 'T', varlong(Long.MAX_VALUE))))
        .isInstanceOf(ShadowFormatException.class).hasMessageContaining("pairs").hasMessageContaining("512");
    // One pair whose served name claims a length of 2^40 bytes.
    assertThatThrownBy(() -> ShadowTable.decode(bytes(1, 'T', varlong(1), varlong(1L << 40))))
        .isInstanceOf(ShadowFormatException.class).hasMessageContaining("pairs[0].served length");
    // A pair of one sample whose distance histogram claims 2^50 buckets.
    byte[] header = bytes(1, 'P', varlong(1), varlong(1), varlong(0), varlong(0), varlong(1), varlong(1), varlong(1), varlong(1),
        varlong(0), varlong(0), varlong(5), varlong(0), varlong(1L << 50));
    assertThatThrownBy(() -> PairStats.decode(header)).isInstanceOf(ShadowFormatException.class)
        .hasMessageContaining("pair.distance buckets");
    assertThatThrownBy(() -> ShadowTable.decode(new byte[ShadowTable.MAX_ENCODED_BYTES + 1]))
        .isInstanceOf(ShadowFormatException.class).hasMessageContaining("more than the most allowed");
    assertThatThrownBy(() -> ShadowTable.decode("A".repeat(ShadowTable.MAX_ENCODED_BYTES / 3 * 4 + 8)))
        .isInstanceOf(ShadowFormatException.class).hasMessageContaining("longer than the most allowed");
    // A varint that never ends.
    byte[] endless = new byte[20];
    Arrays.fill(endless, (byte) 0xFF);
    endless[0] = 1;
    endless[1] = 'T';
    assertThatThrownBy(() -> ShadowTable.decode(endless)).isInstanceOf(ShadowFormatException.class).hasMessageContaining("63 bits");
  }

  @Test
  @DisplayName("figures that contradict each other are refused, naming the field")
  void shouldRefuseContradictoryFigures() {
    // both_found greater than samples
    assertThatThrownBy(() -> PairStats.decode(bytes(1, 'P', varlong(1), varlong(2))))
        .isInstanceOf(ShadowFormatException.class).hasMessageContaining("pair.both_found");
    // within 250 m fewer than within 50 m
    assertThatThrownBy(() -> PairStats.decode(bytes(1, 'P', varlong(2), varlong(2), varlong(0), varlong(0), varlong(2), varlong(1))))
        .isInstanceOf(ShadowFormatException.class).hasMessageContaining("within_m.250");
    // A histogram holding fewer values than samples.
    PairStats one = new PairStats();
    LonLat p = new LonLat(0, 0);
    one.record(Samples.sample(1, "a", "b", "describe", p, p, 1, 1));
    byte[] enc = one.encode();
    byte[] fewer = enc.clone();
    fewer[2] = 2; // samples 1 → 2, both_found stays 1
    assertThatThrownBy(() -> PairStats.decode(fewer)).isInstanceOf(ShadowFormatException.class)
        .hasMessageContaining("served_latency").hasMessageContaining("1 values for 2 samples");
  }

  @Test
  @DisplayName("a pair listed twice or a name that is not a name is refused")
  void shouldRefuseDuplicatePairsAndBadNames() {
    ShadowTable t = new ShadowTable();
    LonLat p = new LonLat(0, 0);
    t.record(Samples.sample(1, "a", "b", "describe", p, p, 1, 1));
    byte[] one = t.encode();
    byte[] body = Arrays.copyOfRange(one, 3, one.length);
    byte[] twice = concat(bytes(1, 'T', varlong(2)), body, body);
    assertThatThrownBy(() -> ShadowTable.decode(twice)).isInstanceOf(ShadowFormatException.class).hasMessageContaining("listed twice");
    byte[] evil = one.clone();
    evil[4] = 0x1b; // the served name "a" becomes an escape character
    assertThatThrownBy(() -> ShadowTable.decode(evil)).isInstanceOf(ShadowFormatException.class)
        .hasMessageContaining("pairs[0].served").hasMessageNotContaining("\u001b");
  }

  private static byte[] varlong(long v) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
    return out.toByteArray();
  }

  private static byte[] bytes(int version, int kind, byte[]... parts) {
    return concat(new byte[] {(byte) version, (byte) kind}, parts);
  }

  private static byte[] concat(byte[] first, byte[]... rest) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(first);
    for (byte[] b : rest) {
      out.writeBytes(b);
    }
    return out.toByteArray();
  }

  @Test
  @DisplayName("the Base64 form is plain ASCII, fit for a text column or a Redis string")
  void shouldWriteAsciiBase64() {
    String s = table(8, 50).encodeToString();
    assertThat(StandardCharsets.US_ASCII.newEncoder().canEncode(s)).isTrue();
    assertThat(s).matches("[A-Za-z0-9+/=]+");
  }
}
