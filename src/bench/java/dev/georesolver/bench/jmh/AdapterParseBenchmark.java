package dev.georesolver.bench.jmh;

import dev.georesolver.geo.Direction;
import dev.georesolver.provider.NominatimAdapter;
import dev.georesolver.provider.ProviderAnswer;
import dev.georesolver.provider.ProviderResponse;
import dev.georesolver.provider.SchemaMode;
import io.vertx.core.buffer.Buffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One provider answer read by its adapter: the recorded Nominatim jsonv2 search for
 * "10 Downing St, London" (src/test/resources/fixtures/providers/nominatim, copied into the bench
 * jar by the bench profile), parsed with strict schema validation.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AdapterParseBenchmark {

  static final String FIXTURE = "/fixtures/providers/nominatim/search-jsonv2-10-downing-st-london-en.json";

  private final NominatimAdapter adapter = new NominatimAdapter();
  private ProviderResponse response;

  @Setup
  public void setup() throws IOException {
    try (InputStream in = AdapterParseBenchmark.class.getResourceAsStream(FIXTURE)) {
      if (in == null) {
        throw new IllegalStateException("fixture missing from the bench jar: " + FIXTURE);
      }
      response = new ProviderResponse(200, Map.of("content-type", "application/json"), Buffer.buffer(in.readAllBytes()));
    }
    if (!(adapter.parse(Direction.FORWARD, response, SchemaMode.STRICT) instanceof ProviderAnswer.Found)) {
      throw new IllegalStateException("the fixture no longer parses to a hit");
    }
  }

  @Benchmark
  public ProviderAnswer parseNominatimStrict() {
    return adapter.parse(Direction.FORWARD, response, SchemaMode.STRICT);
  }
}
