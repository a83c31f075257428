package dev.georesolver.bench;

import java.util.Arrays;

/**
 * Entry point of {@code target/georesolver-bench.jar} (built with {@code mvn -Pbench package}): one
 * sub-command per bench tool, so {@code scripts/bench.sh} needs a single jar.
 *
 * <pre>
 *   provider    --port N                                  the stand-in provider ({@link StandInProvider})
 *   bare        --port N --body FILE [--trace-id ID]      the bare Vert.x endpoint ({@link BareServer})
 *   loadgen     rate|burst ...                            the open-loop load generator ({@link LoadGen})
 *   jfr-summary FILE [--top N]                            hot methods and allocation sites ({@link JfrSummary})
 *   jmh         [JMH options]                             the JMH microbenchmarks (org.openjdk.jmh.Main)
 *   resolver    --manifest F --port N [--event-loops N]   the resolver on a chosen event-loop pool ({@link ResolverLauncher})
 *   drain       [--items 10000] [--rate N] ...            the reconciler's drain rate ({@link DrainBench})
 *   otlp-sink   --port N                                  a local OTLP/HTTP trace sink ({@link OtlpSink})
 *   sweep-chart --in SWEEP.tsv --out FILE.png             the open-loop sweep as a chart ({@link SweepChart})
 *   store-footprint [--answers 100000]                    heap bytes per answer in the memory store ({@link StoreFootprint})
 * </pre>
 */
public final class BenchMain {

  private BenchMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      System.err.println("usage: java -jar target/georesolver-bench.jar provider|bare|loadgen|jfr-summary|jmh [options]");
      System.exit(2);
    }
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    switch (args[0]) {
      case "provider" -> StandInProvider.main(rest);
      case "bare" -> BareServer.main(rest);
      case "loadgen" -> LoadGen.main(rest);
      case "jfr-summary" -> JfrSummary.main(rest);
      case "jmh" -> org.openjdk.jmh.Main.main(rest);
      case "resolver" -> ResolverLauncher.main(rest);
      case "drain" -> DrainBench.main(rest);
      case "otlp-sink" -> OtlpSink.main(rest);
      case "sweep-chart" -> SweepChart.main(rest);
      case "store-footprint" -> StoreFootprint.main(rest);
      default -> {
        System.err.println("unknown sub-command " + args[0]);
        System.exit(2);
      }
    }
  }
}
