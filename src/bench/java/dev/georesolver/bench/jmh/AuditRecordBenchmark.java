package dev.georesolver.bench.jmh;

import dev.georesolver.audit.AuditRecords;
import dev.georesolver.bus.AuditEvent;
import dev.georesolver.bus.ResolveResult;
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
 * What every degraded answer costs its chain's event loop after the reply has left: building its
 * audit record (the record's fields, a fresh id, and the canonical JSON its hash is computed over).
 * The answer is a failover answer of the bench's shape: tier 1 skipped with its breaker open, tier 2
 * answered.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AuditRecordBenchmark {

  static final String DEGRADED = """
      {"status":"resolved","lon":-0.1276474,"lat":51.5034066,"crs":"EPSG:4326","resolution_source":"fast",
       "claim":"open_data","precision":"rooftop","confidence":0.9,"degraded":true,
       "notice":"From open data (fast), tier hung unavailable","intent":"failover","direction":"forward",
       "idempotency_key":"5f1c0c2b8e0d4a8f9a3d1e7b6c5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a",
       "manifest_revision":"0123456789ab","trace_id":"4bf92f3577b34da6a3ce929d0e0e4736","elapsed_ms":1,
       "attempts":[{"tier":"hung","outcome":"circuit_open","tries":0,"ms":0},{"tier":"fast","outcome":"hit","tries":1,"ms":1}],
       "transform":{"source_crs":"EPSG:4326","definition":"identity","definition_hash":"identity"},
       "resolved_at_ms":1764431000000}
      """;

  private ResolveResult degraded;

  @Setup
  public void setup() {
    degraded = ResolveResult.fromJson(new JsonObject(DEGRADED));
  }

  /** The record {@code AuditBuffer.offer} builds for a fallback activation. */
  @Benchmark
  public AuditEvent degradedRecord() {
    return AuditRecords.of("public", degraded, false, 1764431000123L);
  }
}
