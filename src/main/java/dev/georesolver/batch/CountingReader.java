package dev.georesolver.batch;

/**
 * What every batch reader keeps besides its parser: the limits, whether the file began with a
 * byte-order mark, and the rows handed out, counted against {@link BatchLimits#maxRows}.
 */
abstract class CountingReader implements BatchReader {

  final BatchLimits limits;
  private final boolean bom;
  private long rows;

  CountingReader(BatchLimits limits, boolean bom) {
    this.limits = limits;
    this.bom = bom;
  }

  /**
   * The index of the row about to be handed out.
   *
   * @throws BatchInputException when it is one more than the file may hold
   */
  final long nextIndex() throws BatchInputException {
    if (rows >= limits.maxRows()) {
      throw new BatchInputException(BatchInputException.Kind.TOO_MANY_ROWS,
          "the file has more than " + String.format(java.util.Locale.ROOT, "%,d", limits.maxRows()) + " rows");
    }
    return rows++;
  }

  @Override
  public final long rowsRead() {
    return rows;
  }

  @Override
  public char delimiter() {
    return ',';
  }

  @Override
  public final boolean byteOrderMark() {
    return bom;
  }
}
