package dev.georesolver.tier;

import dev.georesolver.bus.Hit;
import dev.georesolver.crs.CrsException;
import dev.georesolver.crs.CrsNormalizer;
import dev.georesolver.crs.Wgs84Point;
import dev.georesolver.geo.Bbox;
import dev.georesolver.provider.FailureClass;
import dev.georesolver.provider.ProviderAnswer;
import dev.georesolver.provider.RawHit;

/**
 * Turns a provider's candidates into the rung's answer: each moved into EPSG:4326, the best one that
 * lies inside the requested bbox chosen (DESIGN §3, §6).
 *
 * <p>A CRS that cannot be read or transformed is degradable; candidates that all fall outside the
 * bbox are {@link FailureClass#OUT_OF_BBOX}. Not thread-safe (it uses the tier's
 * {@link CrsNormalizer}).
 */
final class HitSelector {

  /** Either a hit or a failure. */
  record Selected(Hit hit, ProviderAnswer.Failed failure) {}

  private final CrsNormalizer crs;

  HitSelector(CrsNormalizer crs) {
    this.crs = crs;
  }

  Selected select(ProviderAnswer.Found found, Bbox bbox) {
    String crsProblem = null;
    int outside = 0;
    for (RawHit h : found.hits()) {
      Wgs84Point p;
      try {
        p = crs.toWgs84(h.crs(), h.x(), h.y()).rounded();
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
      return new Selected(new Hit(p.lon(), p.lat(), conf, h.label(), h.precision(), distance, h.observedAtMs(),
          p.transform()), null);
    }
    if (outside > 0) {
      return new Selected(null, new ProviderAnswer.Failed(FailureClass.OUT_OF_BBOX,
          outside + " candidate(s) outside the requested bbox", null));
    }
    return new Selected(null, new ProviderAnswer.Failed(FailureClass.DEGRADABLE, "crs: " + crsProblem, null));
  }
}
