package dev.georesolver.issues;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line works from any directory on the bundled manifest, starts without a warning, and {@code init} writes a manifest that validates. */
class Issue26CommandLineAnywhereTest {

  @TempDir
  Path dir;

  record Run(int status, String out, String err) {}

  /** Runs the real main class in a new JVM whose working directory is {@code dir} (no conf/ there). */
  private Run cli(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "dev.georesolver.cli.Main"));
    cmd.addAll(List.of(args));
    Path out = dir.resolve("stdout.txt");
    Path err = dir.resolve("stderr.txt");
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile())
        .redirectOutput(out.toFile()).redirectError(err.toFile());
    pb.environment().remove("GEO_MANIFEST");
    pb.environment().remove("GEO_GOOGLE_API_KEY");
    Process p = pb.start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("the command did not finish: " + String.join(" ", args));
    }
    return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
  }

  @Test
  @DisplayName("geocode from a directory without conf/ answers on the bundled manifest, with no WARN line")
  void geocodeAnywhere() throws Exception {
    Run r = cli("geocode", "Paris, Texas");
    assertThat(r.status()).as(r.toString()).isZero();
    assertThat(r.out()).contains("resolved").contains("Paris, Texas");
    assertThat(r.err()).contains("using the default manifest bundled in the jar")
        .doesNotContain("WARN").doesNotContain("cannot read manifest");
  }

  @Test
  @DisplayName("init writes conf/manifest.yaml that validates, with the optional blocks commented out, and never overwrites it unasked")
  void initWritesAValidManifest() throws Exception {
    Run init = cli("init");
    assertThat(init.status()).as(init.toString()).isZero();
    String written = Files.readString(dir.resolve("conf/manifest.yaml"));
    assertThat(written).contains("routing:").contains("# state:").contains("# reconcile:");

    Run valid = cli("validate", "conf/manifest.yaml");
    assertThat(valid.status()).as(valid.toString()).isZero();
    assertThat(valid.out()).contains("valid");

    Run again = cli("init");
    assertThat(again.status()).isEqualTo(2);
    assertThat(again.err()).contains("not overwritten");
    assertThat(Files.readString(dir.resolve("conf/manifest.yaml"))).isEqualTo(written);
  }
}
