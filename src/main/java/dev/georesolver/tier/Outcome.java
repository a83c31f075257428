package dev.georesolver.tier;

import dev.georesolver.bus.Hit;
import dev.georesolver.provider.ProviderAnswer;

/**
 * What one attempt came to, as the breaker, the latency window and the retry loop see it: a hit in
 * EPSG:4326, or a classified failure (no match included).
 */
sealed interface Outcome {

  /** The attempt answered with a usable point. */
  record Found(Hit hit) implements Outcome {}

  /** The attempt did not answer with a usable point. */
  record Failed(ProviderAnswer.Failed failure) implements Outcome {}
}
