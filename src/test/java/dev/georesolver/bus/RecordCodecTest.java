package dev.georesolver.bus;

import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The local codec passes the same instance; the cluster codec writes a length-prefixed JSON form. */
class RecordCodecTest {

  private final RecordCodec<ResolveResult> codec =
      new RecordCodec<>(ResolveResult.class, ResolveResult::toJson, ResolveResult::fromJson);

  @Test
  void shouldPassTheSameInstanceLocally() {
    assertThat(codec.transform(Samples.RESOLVED)).isSameAs(Samples.RESOLVED);
  }

  @Test
  void shouldRoundTripOverTheWireAtANonZeroPosition() {
    Buffer wire = Buffer.buffer().appendString("cluster-header").appendInt(42);
    int pos = wire.length();

    codec.encodeToWire(wire, Samples.RESOLVED);

    assertThat(codec.decodeFromWire(pos, wire)).isEqualTo(Samples.RESOLVED);
  }

  @Test
  void shouldReadOnlyItsOwnBytesWhenMoreFollow() {
    Buffer wire = Buffer.buffer().appendByte((byte) 7);
    codec.encodeToWire(wire, Samples.RESOLVED);
    int second = wire.length();
    codec.encodeToWire(wire, Samples.REFUSED);
    wire.appendString("trailing bytes");

    assertThat(codec.decodeFromWire(1, wire)).isEqualTo(Samples.RESOLVED);
    assertThat(codec.decodeFromWire(second, wire)).isEqualTo(Samples.REFUSED);
  }

  @Test
  void shouldPrefixTheJsonWithItsLength() {
    Buffer wire = Buffer.buffer();

    codec.encodeToWire(wire, Samples.REFUSED);

    assertThat(wire.getInt(0)).isEqualTo(wire.length() - 4);
    assertThat(wire.getBuffer(4, wire.length()).toJsonObject()).isEqualTo(Samples.REFUSED.toJson());
  }

  @Test
  void shouldBeNamedAfterTheRecordAndBeAUserCodec() {
    assertThat(codec.name()).isEqualTo("georesolver.ResolveResult");
    assertThat(codec.systemCodecID()).isEqualTo((byte) -1);
    assertThat(codec.type()).isEqualTo(ResolveResult.class);
  }
}
