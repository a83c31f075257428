package dev.georesolver.bench.jmh;

import dev.georesolver.crs.CrsException;
import dev.georesolver.crs.CrsNormalizer;
import dev.georesolver.crs.Wgs84Point;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One Web Mercator point to WGS 84 on a reused normalizer (as a tier verticle holds one): CRS id
 * parse, cached transform lookup, forward transform and the round-trip domain check.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CrsTransformBenchmark {

  private CrsNormalizer crs;
  private double x = -13_627_361.0;
  private double y = 4_548_863.0;

  @Setup
  public void setup() throws CrsException {
    crs = new CrsNormalizer(Map.of());
    crs.toWgs84("EPSG:3857", x, y);
  }

  @Benchmark
  public Wgs84Point webMercatorToWgs84() throws CrsException {
    return crs.toWgs84("EPSG:3857", x, y);
  }
}
