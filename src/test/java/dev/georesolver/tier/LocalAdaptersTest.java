package dev.georesolver.tier;

import dev.georesolver.provider.AdapterRegistry;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Clock;

import static org.assertj.core.api.Assertions.assertThat;

/** The tier can build every local adapter the registry names, and only those. */
class LocalAdaptersTest {

  @Test
  @DisplayName("every local adapter of the registry has a built-in factory; HTTP adapters have none")
  void shouldBuildExactlyTheRegistrysLocalAdapters() {
    for (String name : AdapterRegistry.names()) {
      boolean local = AdapterRegistry.get(name).local();
      assertThat(LocalAdapters.builtIn(name, Clock.systemUTC()) != null).as(name).isEqualTo(local);
    }
  }
}
