package dev.georesolver.bench.jmh;

import dev.georesolver.bus.ResolveResult;
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
 * The last step of every answer, replays included: {@code ResolveResult.toJson().toBuffer()}. The
 * result is a replayed answer of the shape the ingress serves (one attempt, an identity transform).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ResultEncodeBenchmark {

  static final String SAMPLE = """
      {"status":"resolved","lon":-0.1276474,"lat":51.5034066,"crs":"EPSG:4326","resolution_source":"fast",
       "claim":"open_data","confidence":0.9,"degraded":false,
       "notice":"From open data (fast), ","intent":"describe",
       "idempotency_key":"5f1c0c2b8e0d4a8f9a3d1e7b6c5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a",
       "manifest_revision":"0123456789ab","trace_id":"4bf92f3577b34da6a3ce929d0e0e4736","elapsed_ms":0,
       "attempts":[{"tier":"fast","outcome":"hit","tries":1,"ms":1}],
       "transform":{"source_crs":"EPSG:4326","definition":"identity","definition_hash":"identity"},
       "resolved_at_ms":1764431000000,"replayed":true,"replay_age_s":12}
      """;

  private ResolveResult result;

  @Setup
  public void setup() {
    result = ResolveResult.fromJson(new JsonObject(SAMPLE));
  }

  @Benchmark
  public Buffer toJsonToBuffer() {
    return result.toJson().toBuffer();
  }
}
