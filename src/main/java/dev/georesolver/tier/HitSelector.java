package dev.georesolver.tier;

import dev.georesolver.bus.Hit;
import dev.georesolver.crs.CrsException;
import dev.georesolver.crs.CrsNormalizer;
import dev.georesolver.crs.CrsNotLoadedException;
import dev.georesolver.crs.Wgs84Point;
import dev.georesolver.geo.Bbox;
import dev.georesolver.geo.FailureClass;
import dev.georesolver.provider.ProviderAnswer;
import dev.georesolver.provider.ProviderText;
import dev.georesolver.provider.RawHit;

/**
 * Turns a provider's candidates into the rung's answer: each moved into EPSG:4326, the best one that
 * lies inside the requested bbox chosen, with the structured address the provider gave for it.
 *
 * <p>A CRS that cannot be read or transformed is degradable; candidates that all fall outside the
 * bbox are {@link FailureClass#OUT_OF_BBOX}. A CRS whose definition the tier's non-blocking
 * normalizer has not got yet stops the selection with {@link CrsNotLoadedException}: look it up
 * off the event loop and select again. Not thread-safe (it uses the tier's {@link CrsNormalizer}).
 */
final class HitSelector {

  private final CrsNormalizer crs;

  HitSelector(CrsNormalizer crs) {
    this.crs = crs;
  }

  Outcome select(ProviderAnswer.Found found, Bbox bbox) throws CrsNotLoadedException {
    String crsProblem = null;
    int outside = 0;
    for (RawHit h : found.hits()) {
      Wgs84Point p;
      try {
        p = crs.toWgs84(h.crs(), h.x(), h.y()).rounded();
      } catch (CrsNotLoadedException e) {
        throw e;
      } catch (CrsException e) {
        crsProblem = e.getMessage();
        continue;
      }
      if (bbox != null && !bbox.contains(p.lon(), p.lat())) {
        outside++;
        continue;
      }
      double conf = Math.max(0, Math.min(1, h.confidence()));
      Double distance = h.distanceM() == null ? null : Math.round(h.distanceM() * 10) / 10.0;
      return new Outcome.Found(new Hit(p.lon(), p.lat(), conf, h.label(), h.precision(), distance, h.observedAtMs(),
          p.transform(), h.address()));
    }
    if (outside > 0) {
      return new Outcome.Failed(new ProviderAnswer.Failed(FailureClass.OUT_OF_BBOX,
          outside + " candidate(s) outside the requested bbox", null));
    }
    return new Outcome.Failed(new ProviderAnswer.Failed(FailureClass.DEGRADABLE, ProviderText.bound("crs: " + crsProblem), null));
  }
}
