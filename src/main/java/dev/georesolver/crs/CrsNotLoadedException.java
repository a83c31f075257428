package dev.georesolver.crs;

/**
 * A CRS whose definition a {@linkplain CrsNormalizer#nonBlocking non-blocking} normalizer cannot
 * apply yet: only a read of the EPSG database ({@link CrsCatalog#lookUp}, on a worker) can tell
 * what it is. Not a failure of the answer: look it up and transform again. No stack trace.
 */
public final class CrsNotLoadedException extends CrsException {

  private final CrsId crs;

  public CrsNotLoadedException(CrsId crs) {
    super("definition of " + crs.canonical() + " not looked up yet");
    this.crs = crs;
  }

  /** The CRS to look up. */
  public CrsId crs() {
    return crs;
  }
}
