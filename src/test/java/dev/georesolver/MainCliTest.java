package dev.georesolver;

import dev.georesolver.config.ManifestLoader;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The command line of DESIGN §9: flags win over the environment, and bad values are refused by name. */
class MainCliTest {

  @Test
  @DisplayName("defaults: conf/manifest.yaml, port 8080, no Redis, one event loop per available processor")
  void defaults() {
    Main.Cli c = Main.Cli.parse(new String[0], Map.of());
    assertThat(c.manifest()).isEqualTo("conf/manifest.yaml");
    assertThat(c.port()).isEqualTo(8080);
    assertThat(c.redisUrl()).isNull();
    assertThat(c.eventLoops()).isEqualTo(Runtime.getRuntime().availableProcessors());
  }

  @Test
  @DisplayName("the environment is read, and flags win over it")
  void flagsWinOverEnvironment() {
    Map<String, String> env = Map.of("GEO_MANIFEST", "/etc/m.yaml", "GEO_PORT", "9000",
        "GEO_REDIS_URL", "redis://env:6379", "GEO_EVENT_LOOPS", "3");
    Main.Cli fromEnv = Main.Cli.parse(new String[0], env);
    assertThat(fromEnv).isEqualTo(new Main.Cli("/etc/m.yaml", 9000, "redis://env:6379", false, 3));
    Main.Cli flags = Main.Cli.parse(new String[] {"--port", "7000", "--redis", "redis://flag:1", "--event-loops", "2"}, env);
    assertThat(flags).isEqualTo(new Main.Cli("/etc/m.yaml", 7000, "redis://flag:1", false, 2));
  }

  @Test
  @DisplayName("bad flags are refused naming the flag")
  void badFlags() {
    assertThatThrownBy(() -> Main.Cli.parse(new String[] {"--port", "http"}, Map.of())).hasMessageContaining("port");
    assertThatThrownBy(() -> Main.Cli.parse(new String[] {"--port", "70000"}, Map.of())).hasMessageContaining("port");
    assertThatThrownBy(() -> Main.Cli.parse(new String[] {"--event-loops", "0"}, Map.of())).hasMessageContaining("event loops");
    assertThatThrownBy(() -> Main.Cli.parse(new String[] {"--manifest"}, Map.of())).hasMessageContaining("--manifest needs a value");
    assertThatThrownBy(() -> Main.Cli.parse(new String[] {"--colour"}, Map.of())).hasMessageContaining("unknown argument --colour");
  }

  @Test
  @DisplayName("--redis turns the shared store on; a manifest asking for Redis without a URL gets localhost")
  void storeUrl() throws Exception {
    var memory = ManifestLoader.load(Path.of("conf/manifest.yaml"), Map.of());
    assertThat(Main.storeUrl(Main.Cli.parse(new String[0], Map.of()), memory)).isNull();
    assertThat(Main.storeUrl(Main.Cli.parse(new String[] {"--redis", "redis://r:1"}, Map.of()), memory)).isEqualTo("redis://r:1");
    var redis = ManifestLoader.parse(java.nio.file.Files.readString(Path.of("conf/manifest.yaml"))
        .replace("deduplication_store: \"memory\"", "deduplication_store: \"redis\""), Map.of());
    assertThat(Main.storeUrl(Main.Cli.parse(new String[0], Map.of()), redis)).isEqualTo("redis://localhost:6379");
  }
}
