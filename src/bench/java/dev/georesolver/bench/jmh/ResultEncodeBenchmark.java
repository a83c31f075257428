package dev.georesolver.bench.jmh;

import dev.georesolver.bus.ResolveResult;
import dev.georesolver.bus.StoredAnswer;
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
 * The last step of every answer, replays included: writing the result JSON. The result is an answer
 * of the shape the ingress serves (one attempt, an identity transform); {@link #toJsonToBuffer()} is
 * the way through a {@code JsonObject} that the streaming writer replaced.
 *
 * <p>{@link #freshToBuffer()} and {@link #replayToBuffer()} are the main code's two writes (a walk's
 * answer; a replay of a stored answer). {@link #replaySplice()} is the hand-written what-if behind
 * the proposal in docs/benchmarks.md that {@code replayToBuffer} now implements.
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
  private StoredAnswer stored;
  private byte[] storedTail;
  private String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
  private long elapsedMs = 1;
  private long replayAgeS = 12;

  @Setup
  public void setup() {
    result = ResolveResult.fromJson(new JsonObject(SAMPLE));
    stored = StoredAnswer.of(result, "public");
    JsonObject stable = result.toJson();
    stable.remove("trace_id");
    stable.remove("elapsed_ms");
    stable.remove("replayed");
    stable.remove("replay_age_s");
    byte[] all = stable.toBuffer().getBytes();
    storedTail = java.util.Arrays.copyOfRange(all, 1, all.length);
  }

  /** A walk's answer as ingress writes it: every field encoded. */
  @Benchmark
  public Buffer freshToBuffer() {
    return result.toBuffer();
  }

  /** A replay as the chain builds it and ingress writes it: delivery fields, then the stored bytes. */
  @Benchmark
  public Buffer replayToBuffer() {
    return stored.replayed("public", 1767229000000L, "describe", traceId, elapsedMs, replayAgeS).toBuffer();
  }

  @Benchmark
  public Buffer toJsonToBuffer() {
    return result.toJson().toBuffer();
  }

  /** The proposal: per-delivery fields, then the answer's stored bytes (encoded once, at store time). */
  @Benchmark
  public Buffer replaySplice() {
    return Buffer.buffer(96 + storedTail.length)
        .appendString("{\"trace_id\":\"").appendString(traceId)
        .appendString("\",\"elapsed_ms\":").appendString(Long.toString(elapsedMs))
        .appendString(",\"replayed\":true,\"replay_age_s\":").appendString(Long.toString(replayAgeS))
        .appendString(",")
        .appendBytes(storedTail);
  }
}
