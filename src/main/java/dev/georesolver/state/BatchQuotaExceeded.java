package dev.georesolver.state;

/**
 * A batch job was not created: its tenant's live jobs, or the rows in them, would go over its
 * quota. The message names the bound, where it is set and the tenant's use; nothing was written.
 * No stack trace: an expected outcome.
 */
public final class BatchQuotaExceeded extends RuntimeException {

  public BatchQuotaExceeded(String message) {
    super(message, null, false, false);
  }
}
