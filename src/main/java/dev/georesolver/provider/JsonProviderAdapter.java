package dev.georesolver.provider;

import dev.georesolver.geo.Direction;
import dev.georesolver.geo.FailureClass;

/**
 * The skeleton every JSON provider adapter shares: decode the body once, classify the HTTP status
 * (or the provider's own error signal), then read the candidates. Guarantees the
 * {@link ProviderAdapter#parse} contract: it never throws, and an unreadable body is
 * {@link FailureClass#DEGRADABLE}.
 *
 * <p>Subclasses are immutable and thread-safe.
 */
abstract class JsonProviderAdapter implements ProviderAdapter {

  @Override
  public final ProviderAnswer parse(Direction direction, ProviderResponse response, SchemaMode mode) {
    try {
      Object body = Parsing.json(response.body());
      ProviderAnswer.Failed failure = classify(response, body);
      if (failure != null) {
        return failure;
      }
      if (body == null) {
        return ProviderAnswer.failed(FailureClass.DEGRADABLE, "body is not JSON");
      }
      return read(direction, body, mode, response);
    } catch (RuntimeException e) {
      // A provider shape no reader anticipated must degrade the rung, never break the walk.
      return ProviderAnswer.failed(FailureClass.DEGRADABLE, "unreadable body (" + e.getClass().getSimpleName() + ")");
    }
  }

  /**
   * The failure the status line or an error-only body stands for, or null to go on reading. The
   * default applies the shared HTTP rules with 404 unclassified (a provider's 404 means a wrong
   * endpoint path, not "no match").
   *
   * @param body the decoded body ({@code JsonObject} or {@code JsonArray}), or null when not JSON
   */
  protected ProviderAnswer.Failed classify(ProviderResponse response, Object body) {
    return HttpStatusClassifier.classify(response, false);
  }

  /**
   * Reads a 2xx JSON body into candidates or a classified failure.
   *
   * @param body a {@code JsonObject} or {@code JsonArray}, never null
   */
  protected abstract ProviderAnswer read(Direction direction, Object body, SchemaMode mode, ProviderResponse response);
}
