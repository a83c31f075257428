package dev.georesolver.bench.jmh;

import dev.georesolver.bus.Redelivery;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.bus.StoredAnswer;
import dev.georesolver.compat.Answer;
import dev.georesolver.compat.GoogleRequests;
import dev.georesolver.compat.GoogleShapes;
import dev.georesolver.compat.NominatimFormat;
import dev.georesolver.compat.NominatimRequests;
import dev.georesolver.compat.NominatimShapes;
import dev.georesolver.compat.Outcome;
import dev.georesolver.geo.Direction;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;

/**
 * What the compatible endpoints add to a replay: reading the stored answer back
 * ({@link Answer#of}) and writing it in the dialect's shape, against the {@code /v1} replay's own
 * encoding of the same delivery.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CompatEncodeBenchmark {

  private Redelivery replay;
  private final NominatimRequests.Options nominatim =
      new NominatimRequests.Options(NominatimFormat.JSONV2, false, 10, "10 Downing St, London SW1A 2AA");
  private final GoogleRequests.Options google = new GoogleRequests.Options("10 Downing St, London SW1A 2AA");

  @Setup
  public void setup() {
    ResolveResult fresh = ResolveResult.fromJson(new JsonObject(ResultEncodeBenchmark.SAMPLE));
    replay = StoredAnswer.of(fresh, "public").replayed("public", 1767229000000L, "describe", "4bf92f3577b34da6a3ce929d0e0e4736", 1, 12L);
  }

  @Benchmark
  public Buffer v1Replay() {
    return replay.toBuffer();
  }

  @Benchmark
  public Buffer nominatimReplay() {
    return NominatimShapes.render(Outcome.of(Answer.of(replay.answer())), Direction.FORWARD, nominatim).body();
  }

  @Benchmark
  public Buffer googleReplay() {
    return GoogleShapes.render(Outcome.of(Answer.of(replay.answer())), google).body();
  }
}
