package dev.georesolver.gazetteer;

/** The bundled gazetteer, loaded once per test JVM and shared by the test classes (it is immutable). */
final class TestGazetteer {

  private TestGazetteer() {}

  private static final class Holder {
    static final long START = System.nanoTime();
    static final Gazetteer INSTANCE = Gazetteer.loadDefault();
    static final long LOAD_MS = (System.nanoTime() - START) / 1_000_000;
  }

  static Gazetteer get() {
    return Holder.INSTANCE;
  }

  /** How long the first load in this JVM took (cold classes and JIT), in milliseconds. */
  static long firstLoadMs() {
    return Holder.LOAD_MS;
  }
}
