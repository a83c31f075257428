package dev.georesolver.issues;

import dev.georesolver.crs.CrsCatalog;
import dev.georesolver.crs.CrsId;
import dev.georesolver.support.FakeClock;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/** A CRS code the EPSG database lacks is read once, then answered from a bounded memory that expires by the injected clock. */
class Issue23UnknownCrsRememberedTest {

  private final List<String> reads = new CopyOnWriteArrayList<>();
  private final FakeClock clock = new FakeClock();
  /** A database that has no code at all; every read of it is counted. */
  private final CrsCatalog catalog = CrsCatalog.of(Map.of(), code -> {
    reads.add(code);
    return null;
  }, clock, 2);

  @Test
  void anUnknownCodeIsNotReadAgainUntilItExpiresOrIsCrowdedOut() {
    CrsId nowhere = CrsId.ofCode(32767);
    assertThat(catalog.lookUp(nowhere).found()).isFalse();
    assertThat(catalog.lookUp(nowhere).found()).isFalse();
    assertThat(catalog.known(nowhere)).as("answered from memory, without a worker").isNotNull();
    assertThat(reads).as("the second lookup does not read the database").containsExactly("EPSG:32767");

    clock.advanceMs(CrsCatalog.UNKNOWN_TTL_MS);
    assertThat(catalog.known(nowhere)).as("forgotten once expired").isNull();
    catalog.lookUp(nowhere);
    assertThat(reads).containsExactly("EPSG:32767", "EPSG:32767");

    // At most two codes remembered: a third crowds out the one asked least recently.
    catalog.lookUp(CrsId.ofCode(32766));
    catalog.lookUp(CrsId.ofCode(32765));
    assertThat(catalog.known(CrsId.ofCode(32765))).isNotNull();
    assertThat(catalog.known(nowhere)).as("crowded out").isNull();
    assertThat(reads).hasSize(4);
  }
}
