package dev.georesolver.provider;

import dev.georesolver.geo.Direction;
import dev.georesolver.geo.FailureClass;
import dev.georesolver.geo.ForwardQuery;
import dev.georesolver.geo.ReverseQuery;

/**
 * Speaks one provider's HTTP dialect: builds its requests and reads its responses.
 *
 * <p>Pure: no I/O, no Vert.x lifecycle, no clock. Implementations are immutable and thread-safe.
 * The tier verticle sends what {@link #forward}/{@link #reverse} build and hands the response to
 * {@link #parse}; it applies the credential, the manifest's extra headers and
 * {@code Idempotency-Key} itself. Transport failures (timeouts, resets) never reach an adapter.
 *
 * <p>{@code endpoint} is the tier's manifest {@code endpoint}; each adapter documents in
 * docs/providers.md which paths it appends to it. Its name, the directions it answers and where
 * its credential goes by default are stated in {@link AdapterRegistry}, not here.
 */
public interface ProviderAdapter {

  /** The request for a forward lookup. */
  OutboundRequest forward(String endpoint, ForwardQuery query);

  /**
   * The request for a reverse lookup; only called when the adapter's {@link AdapterRegistry}
   * capabilities include reverse.
   */
  default OutboundRequest reverse(String endpoint, ReverseQuery query) {
    throw new UnsupportedOperationException("this adapter does not answer reverse lookups");
  }

  /**
   * Reads one response: candidates best first, or a failure in one of the {@link FailureClass}es
   * (the shared HTTP rules of {@link HttpStatusClassifier}, then the provider's own in-body
   * statuses). Never throws: a body that cannot be read is {@link FailureClass#DEGRADABLE}.
   */
  ProviderAnswer parse(Direction direction, ProviderResponse response, SchemaMode mode);
}
